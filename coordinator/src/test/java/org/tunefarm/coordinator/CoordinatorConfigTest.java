package org.tunefarm.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.door.DoorConfig;
import org.tunefarm.coordinator.door.RegistrationLimits;

class CoordinatorConfigTest {
    @TempDir Path dir;

    @Test void theExampleConfigLoadsWithoutTls() throws Exception {
        CoordinatorConfig c = CoordinatorConfig.load(Path.of("..", "configs", "coordinator.yaml"));
        assertNull(c.door().tls());
        assertEquals("", c.door().readToken());
        assertEquals(DoorConfig.MAX_FRAME_BYTES, c.door().maxFrameBytes());
    }

    @Test void tlsFilesAreRelativeToTheConfigFile() throws Exception {
        Path yaml = dir.resolve("c.yaml");
        Files.writeString(yaml, "readToken: r\ntls: {certFile: cert.pem, keyFile: keys/key.pem}\nbridge: {maxFrameBytes: 4096, frameTimeoutMs: 100}\n");
        CoordinatorConfig c = CoordinatorConfig.load(yaml);
        assertEquals(dir.resolve("cert.pem"), c.door().tls().certFile());
        assertEquals(dir.resolve("keys/key.pem"), c.door().tls().keyFile());
        assertEquals("r", c.door().readToken());
        assertEquals(4096, c.door().maxFrameBytes());
        assertEquals(100, c.door().frameTimeoutMs());
    }

    @Test void registrationLimitsComeFromTheBridgeBlockAndAreChecked() throws Exception {
        assertEquals(RegistrationLimits.defaults(), CoordinatorConfig.load(Path.of("..", "configs", "coordinator.yaml")).door().registration());
        Path yaml = dir.resolve("c.yaml");
        Files.writeString(yaml, "bridge: {maxUnregisteredPerAddress: 7, maxUnregistered: 9, maxFailedRegistrationsPerMinute: 5, registerWithinMs: 1500}\n");
        assertEquals(new RegistrationLimits(7, 9, 5, 1500), CoordinatorConfig.load(yaml).door().registration());
        Files.writeString(yaml, "bridge: {maxUnregisteredPerAddress: 0}\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CoordinatorConfig.load(yaml)).getMessage().startsWith("bridge.maxUnregisteredPerAddress:"));
        Files.writeString(yaml, "bridge: {maxUnregisteredPerAddress: 10, maxUnregistered: 5}\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CoordinatorConfig.load(yaml)).getMessage().startsWith("bridge.maxUnregistered:"));
    }

    @Test void halfATlsBlockOrAbsurdLimitsAreRefused() throws Exception {
        Path yaml = dir.resolve("c.yaml");
        Files.writeString(yaml, "tls: {certFile: cert.pem}\n");
        assertThrows(IllegalArgumentException.class, () -> CoordinatorConfig.load(yaml));
        Files.writeString(yaml, "bridge: {maxFrameBytes: 10}\n");
        assertThrows(IllegalArgumentException.class, () -> CoordinatorConfig.load(yaml));
    }
}
