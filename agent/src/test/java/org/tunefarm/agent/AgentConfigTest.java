package org.tunefarm.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentConfigTest {
    @TempDir Path dir;

    @Test void theCredentialFileIsPerIdInTheStateFolderOrWhereverItIsPut() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "farm-secret\n");
        AgentConfig c = AgentConfig.parse(new String[] {"--coordinator", "h:1", "--token-file", token.toString(), "--id", "b-1", "--state", dir.resolve("s").toString()});
        assertEquals("farm-secret", c.token());
        assertEquals(dir.resolve("s").resolve("b-1.credential").toAbsolutePath(), c.credentialFile());
        c = AgentConfig.parse(new String[] {"--coordinator", "h:1", "--token-file", token.toString(), "--id", "b-1", "--credential-file", dir.resolve("c").toString()});
        assertEquals(dir.resolve("c").toAbsolutePath(), c.credentialFile());
        Path yaml = Files.writeString(dir.resolve("agent.yaml"), "coordinators: [h:1]\ntokenFile: token\nid: b-2\nstateDir: st\n");
        c = AgentConfig.parse(new String[] {"--config", yaml.toString()});
        assertEquals(dir.resolve("st").resolve("b-2.credential").toAbsolutePath(), c.credentialFile(), "relative to the config file");
    }

    @Test void theThermalSectionIsReadAndABadFieldIsNamed() throws Exception {
        Path file = Files.writeString(dir.resolve("agent.yaml"), """
                coordinators: [h:1]
                token: t
                thermal:
                  startTemperatureC: 55
                  cooldownTimeoutMs: 30000
                  maxThrottleRetakes: 1
                """);
        AgentConfig c = AgentConfig.parse(new String[] {"--config", file.toString(), "--id", "b"});
        assertEquals(new org.tunefarm.agent.harness.ThermalSettings(55.0, 5, 30_000, 1, 0.10), c.thermal());
        assertEquals(org.tunefarm.agent.harness.ThermalSettings.DEFAULTS,
                AgentConfig.parse(new String[] {"--coordinator", "h:1", "--token", "t", "--id", "b"}).thermal(), "defaults without a section");
        for (String[] bad : new String[][] {{"thermal: {marginC: -1}", "thermal.marginC must be in [0, 100]"},
                {"thermal: {cooldownTimeoutMs: 1.5}", "thermal.cooldownTimeoutMs: must be a whole number"},
                {"thermal: {coolDown: 5}", "thermal.coolDown: unknown field"},
                {"thermal: {startTemperatureC: hot}", "thermal.startTemperatureC: must be a number"}}) {
            Path f = Files.writeString(dir.resolve("bad.yaml"), "coordinators: [h:1]\ntoken: t\n" + bad[0] + "\n");
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> AgentConfig.parse(new String[] {"--config", f.toString()}));
            assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
        }
    }

    @Test void theSensorsSectionIsReadAndItsErrorsNameTheFileAndTheField() throws Exception {
        Files.writeString(dir.resolve("token"), "farm-secret\n");
        Files.createDirectories(dir.resolve("pi-sys"));
        Path yaml = Files.writeString(dir.resolve("agent.yaml"), "coordinators: [h:1]\ntokenFile: token\nsensors:\n  sysfsRoot: pi-sys\n  thermalZones: [cpu-thermal]\n");
        AgentConfig c = AgentConfig.parse(new String[] {"--config", yaml.toString()});
        assertEquals(dir.resolve("pi-sys").toAbsolutePath(), c.sensors().sysfsRoot());
        assertEquals(java.util.List.of("cpu-thermal"), c.sensors().thermalZones());
        assertEquals(org.tunefarm.agent.sensors.SensorsConfig.DEFAULT,
                AgentConfig.parse(new String[] {"--coordinator", "h:1", "--token-file", dir.resolve("token").toString()}).sensors());

        Path bad = Files.writeString(dir.resolve("bad.yaml"), "coordinators: [h:1]\ntokenFile: token\nsensors: {thermalZones: []}\n");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> AgentConfig.parse(new String[] {"--config", bad.toString()}));
        assertEquals(bad + ": sensors.thermalZones: is empty; name at least one zone type, or leave it out for the default list", e.getMessage());
    }
}
