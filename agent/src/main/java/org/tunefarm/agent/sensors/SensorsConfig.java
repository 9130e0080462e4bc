package org.tunefarm.agent.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The agent config's {@code sensors:} section.
 *
 * @param sysfsRoot    where sysfs is: {@code /sys}, or a copy of one for tests and odd boards
 * @param thermalZones the CPU's temperature sensors by kind (thermal zone types, hwmon names, globs),
 *                     hottest wins; null for the default list per platform ({@link ZoneTypes#DEFAULT})
 * @param vcgencmd     the command a Raspberry Pi answers {@code get_throttled} with; a board without
 *                     it is not a Pi; null never asks
 */
public record SensorsConfig(Path sysfsRoot, List<String> thermalZones, String vcgencmd) {

    public static final SensorsConfig DEFAULT = new SensorsConfig(Path.of("/sys"), null, "vcgencmd");

    private static final Set<String> FIELDS = Set.of("sysfsRoot", "thermalZones", "vcgencmd");

    public SensorsConfig {
        thermalZones = thermalZones == null ? null : List.copyOf(thermalZones);
    }

    /** Whether this reads the machine's own sysfs, where OSHI sees the same hardware. */
    boolean thisMachine() {
        return sysfsRoot.equals(DEFAULT.sysfsRoot);
    }

    ZoneTypes zoneTypes() {
        return thermalZones == null ? ZoneTypes.DEFAULT : ZoneTypes.of(thermalZones);
    }

    /**
     * Reads the section.
     *
     * @param node    the config's {@code sensors} node; null or missing means the defaults
     * @param baseDir relative paths are taken from here (the config file's folder)
     * @throws IllegalArgumentException naming the field at fault, e.g. {@code sensors.thermalZones[1]: ...}
     */
    public static SensorsConfig read(JsonNode node, Path baseDir) {
        if (node == null || node.isNull() || node.isMissingNode()) return DEFAULT;
        if (!node.isObject()) throw new IllegalArgumentException("sensors: must be a mapping (sysfsRoot, thermalZones, vcgencmd)");
        for (var it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!FIELDS.contains(k)) throw new IllegalArgumentException("sensors." + k + ": unknown field (known: " + new TreeSet<>(FIELDS) + ")");
        }
        Path root = DEFAULT.sysfsRoot;
        if (node.has("sysfsRoot")) {
            JsonNode r = node.get("sysfsRoot");
            if (!r.isTextual() || r.asText().isBlank()) throw new IllegalArgumentException("sensors.sysfsRoot: must be a folder's path, got " + r);
            root = baseDir.resolve(r.asText()).toAbsolutePath().normalize();
            if (!Files.isDirectory(root)) throw new IllegalArgumentException("sensors.sysfsRoot: " + root + " is not a folder");
        }
        List<String> zones = null;
        if (node.hasNonNull("thermalZones")) {
            JsonNode z = node.get("thermalZones");
            if (!z.isArray()) throw new IllegalArgumentException("sensors.thermalZones: must be a list of zone types, e.g. [cpu-thermal]");
            if (z.isEmpty()) throw new IllegalArgumentException("sensors.thermalZones: is empty; name at least one zone type, or leave it out for the default list");
            zones = new ArrayList<>();
            for (int i = 0; i < z.size(); i++) {
                JsonNode t = z.get(i);
                if (!t.isTextual() || !t.asText().matches("[A-Za-z0-9_.:*?-]+")) {
                    throw new IllegalArgumentException("sensors.thermalZones[" + i + "]: " + t + " is not a zone type or hwmon name"
                            + " (letters, digits, _ . : - and the globs * ?)");
                }
                zones.add(t.asText());
            }
        }
        String vcgencmd = DEFAULT.vcgencmd;
        if (node.has("vcgencmd")) {
            JsonNode v = node.get("vcgencmd");
            if (v.isNull() || (v.isTextual() && v.asText().isBlank())) vcgencmd = null;
            else if (!v.isTextual()) throw new IllegalArgumentException("sensors.vcgencmd: must be a command, got " + v);
            // A path is the config file's neighbour; a bare name is looked up on the PATH when run.
            else vcgencmd = v.asText().contains("/") ? baseDir.resolve(v.asText()).toAbsolutePath().normalize().toString() : v.asText();
        }
        return new SensorsConfig(root, zones, vcgencmd);
    }
}
