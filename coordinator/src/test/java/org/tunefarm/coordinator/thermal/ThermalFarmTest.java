package org.tunefarm.coordinator.thermal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;

/**
 * {@code bench thermal --quick} end to end: a real coordinator process, a real agent process and
 * the simulated heating device's process. The agent waits for the device to cool (the records say
 * how long and from what temperature the candidate started), takes a throttled measurement again
 * after cooling, and the table's sustained winner is the model's, not the burst winner.
 */
class ThermalFarmTest {

    @TempDir Path dir;

    @Test void aHotDeviceIsWaitedForRetakenAndItsSustainedWinnerIsNotItsBurstWinner() throws Exception {
        ThermalOutcome o = new ThermalRun(ThermalRun.Settings.quick(dir), System.err).run();
        System.out.println("bench thermal --quick: " + Protocol.write(o));

        assertEquals(Map.of("layout", "tiles", "width", 8), o.burstWinner(), "the widest wins a burst from cool");
        assertEquals(Map.of("layout", "tiles", "width", 4), o.trueSustainedWinner());
        assertTrue(o.sustainedWinnerCorrect(), "the table's sustained winner is the model's: " + o.sustainedWinner());
        assertNotEquals(o.burstWinner(), o.sustainedWinner());
        assertTrue(o.passed());
        assertEquals(3, o.sustainedFinalists());
        assertTrue(o.sustainedWinnerSustainedCallsPerSec() > o.burstWinnerSustainedCallsPerSec(), "measured: the narrower sustains more calls per second");
        assertTrue(o.throttledRetaken() > 0, "a throttled measurement was taken again after cooling");
        assertTrue(o.cooldownWaits() > 0, "the agent waited for the device to cool");
        assertTrue(o.traceLength() > 100, "the device traced its temperature");

        List<Measurement> records = Files.readAllLines(dir.resolve("coordinator/records.jsonl")).stream()
                .map(l -> read(l)).toList();
        Measurement waited = records.stream().filter(m -> m.thermal() != null && m.thermal().cooldownWaitMs() > 0).findFirst().orElseThrow();
        assertNotNull(waited.thermal().startTemperatureC(), "the record names the temperature it started from: " + waited);
        assertFalse(waited.thermal().cooldownTimedOut(), waited.toString());
        Measurement retaken = records.stream().filter(m -> m.detail().contains("after cooling")).findFirst().orElseThrow();
        // After any note of samples set aside as preempted (the simulated device's calls wait, and a busy machine wakes them late).
        assertTrue(retaken.detail().contains("throttled ("), retaken.detail());
        assertTrue(retaken.thermal().cooldownWaitMs() > 0, "re-taken after a wait: " + retaken.thermal());
        for (Measurement m : records) {
            if (m.round() > 0 && m.sustainedNs() != null) {
                assertEquals(Status.OK, m.status());
                assertNotNull(m.energyJ(), "the device's power is readable: " + m);
            }
        }
    }

    private static Measurement read(String line) {
        try {
            return Protocol.JSON.readValue(line, Measurement.class);
        } catch (Exception e) {
            throw new IllegalStateException(line, e);
        }
    }
}
