package org.tunefarm.agent.sensors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** vcgencmd as a real process: the fake script of the test resources, a missing command, a stuck one. */
class PiThrottleTest {

    @Test void theFakeVcgencmdsBitsThroughARealProcess(@TempDir Path dir) throws IOException {
        Path script = FakeSysfs.vcgencmd(dir);
        assertEquals(0x50005, new PiThrottle(script.toString(), CommandRunner.PROCESS).bits());
    }

    @Test void aMissingCommandIsNotAPi(@TempDir Path dir) {
        assertNull(new PiThrottle(dir.resolve("no-vcgencmd").toString(), CommandRunner.PROCESS).bits());
        assertNull(new PiThrottle(null, CommandRunner.PROCESS).bits(), "not asked at all");
    }

    @Test void aStuckFirmwareCallIsGivenUpOnAtTheTimeout(@TempDir Path dir) throws IOException {
        Path stuck = Files.writeString(dir.resolve("vcgencmd"), "#!/bin/sh\nexec sleep 30\n");
        stuck.toFile().setExecutable(true);
        long t0 = System.nanoTime();
        assertNull(new PiThrottle(stuck.toString(), CommandRunner.PROCESS).bits());
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertTrue(took.compareTo(PiThrottle.TIMEOUT.plusSeconds(5)) < 0, "waited " + took);
    }

    @Test void decimalAndHexRepliesParse() {
        assertEquals(0x80008, new PiThrottle("vcgencmd", FakeSysfs.firmware("throttled=0x80008")).bits());
        assertEquals(0, new PiThrottle("vcgencmd", FakeSysfs.firmware("throttled=0")).bits());
        assertNull(new PiThrottle("vcgencmd", FakeSysfs.firmware("error=1 error_msg=\"Command not registered\"")).bits());
    }
}
