package org.tunefarm.agent.sensors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent config's {@code sensors:} section: defaults, paths relative to the file, and errors that name the field. */
class SensorsConfigTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    @TempDir Path dir;

    private SensorsConfig read(String yaml) throws Exception {
        JsonNode root = YAML.readTree(yaml);
        return SensorsConfig.read(root.get("sensors"), dir);
    }

    private String error(String yaml) {
        return assertThrows(IllegalArgumentException.class, () -> read(yaml)).getMessage();
    }

    @Test void absentMeansTheDefaults() throws Exception {
        assertSame(SensorsConfig.DEFAULT, read("id: x\n"));
        assertEquals(Path.of("/sys"), SensorsConfig.DEFAULT.sysfsRoot());
        assertEquals(ZoneTypes.DEFAULT, SensorsConfig.DEFAULT.zoneTypes());
        assertEquals("vcgencmd", SensorsConfig.DEFAULT.vcgencmd());
    }

    @Test void everyFieldRead() throws Exception {
        Files.createDirectories(dir.resolve("fake-sys"));
        SensorsConfig c = read("""
                sensors:
                  sysfsRoot: fake-sys
                  thermalZones: [cpu-thermal, "cpu*", k10temp]
                  vcgencmd: bin/vcgencmd
                """);
        assertEquals(dir.resolve("fake-sys").toAbsolutePath(), c.sysfsRoot());
        assertEquals(List.of("cpu-thermal", "cpu*", "k10temp"), c.thermalZones());
        assertEquals(ZoneTypes.of(List.of("cpu-thermal", "cpu*", "k10temp")), c.zoneTypes());
        assertEquals(dir.resolve("bin/vcgencmd").toAbsolutePath().toString(), c.vcgencmd(), "a path is the config file's neighbour");
        assertEquals("vcgencmd", read("sensors: {vcgencmd: vcgencmd}").vcgencmd(), "a bare name is looked up on the PATH");
        assertNull(read("sensors: {vcgencmd: \"\"}").vcgencmd(), "never asked");
        assertNull(read("sensors: {vcgencmd: null}").vcgencmd());
    }

    @Test void badValuesNameTheirField() {
        assertEquals("sensors: must be a mapping (sysfsRoot, thermalZones, vcgencmd)", error("sensors: [a]"));
        assertEquals("sensors.thermalzones: unknown field (known: [sysfsRoot, thermalZones, vcgencmd])", error("sensors: {thermalzones: [a]}"));
        assertEquals("sensors.sysfsRoot: " + dir.resolve("nope") + " is not a folder", error("sensors: {sysfsRoot: nope}"));
        assertEquals("sensors.sysfsRoot: must be a folder's path, got 3", error("sensors: {sysfsRoot: 3}"));
        assertEquals("sensors.thermalZones: must be a list of zone types, e.g. [cpu-thermal]", error("sensors: {thermalZones: cpu-thermal}"));
        assertEquals("sensors.thermalZones: is empty; name at least one zone type, or leave it out for the default list", error("sensors: {thermalZones: []}"));
        assertEquals("sensors.thermalZones[1]: \"cpu thermal\" is not a zone type or hwmon name (letters, digits, _ . : - and the globs * ?)",
                error("sensors: {thermalZones: [cpu-thermal, cpu thermal]}"));
        assertEquals("sensors.vcgencmd: must be a command, got [\"a\"]", error("sensors: {vcgencmd: [a]}"));
    }
}
