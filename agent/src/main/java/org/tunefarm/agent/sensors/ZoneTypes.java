package org.tunefarm.agent.sensors;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Which temperature sensors are the CPU's, by their kind: a thermal zone's {@code type} or a hwmon
 * device's {@code name}. Patterns are exact names or globs ({@code *}, {@code ?}), case-sensitive
 * as sysfs is.
 *
 * <p>The default is a list of groups, one per platform, tried in order; the first group that has a
 * readable sensor on this board is the board's CPU temperature (the hottest sensor of that group).
 * A board's own list (the agent config's {@code sensors.thermalZones}) is one group.
 */
record ZoneTypes(List<List<String>> groups) {

    /** Any platform, most specific first, so a phone's {@code cpu*} never shadows a Pi's {@code cpu-thermal}. */
    static final ZoneTypes DEFAULT = new ZoneTypes(List.of(
            // Raspberry Pi (thermal zone cpu-thermal, hwmon cpu_thermal), Jetson Orin (cpu-thermal),
            // older Jetsons (CPU-therm), and most Arm single-board computers.
            List.of("cpu-thermal", "cpu_thermal", "CPU-therm"),
            // x86: Intel's package sensor (x86_pkg_temp zone, coretemp hwmon), AMD's (k10temp, zenpower).
            List.of("x86_pkg_temp", "coretemp", "k10temp", "zenpower"),
            // Phones and Qualcomm boards: cpu-0-0-usr, cpuss-0-usr, cpu0-silver-usr, ...
            List.of("cpu*"),
            // Older Qualcomm kernels name only the sensor: tsens_tz_sensorN.
            List.of("tsens*")));

    ZoneTypes {
        groups = groups.stream().map(List::copyOf).toList();
    }

    /** A board's own list: every type it names counts, the hottest wins. */
    static ZoneTypes of(List<String> types) {
        return new ZoneTypes(List.of(types));
    }

    /** Whether {@code kind} (a zone type or hwmon name; may be null) matches one of the group's patterns. */
    static boolean matches(List<String> group, String kind) {
        if (kind == null) return false;
        for (String p : group) if (glob(p).matcher(kind).matches()) return true;
        return false;
    }

    private static Pattern glob(String pattern) {
        StringBuilder re = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            if (c == '*') re.append(".*");
            else if (c == '?') re.append('.');
            else re.append(Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(re.toString());
    }
}
