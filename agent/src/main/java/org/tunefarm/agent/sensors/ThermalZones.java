package org.tunefarm.agent.sensors;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The CPU's temperature, from the sensors whose kind says they are the CPU's: thermal zones
 * ({@code class/thermal/thermal_zone*}: {@code type}, {@code temp} in millidegrees) and hwmon
 * temperature inputs ({@code class/hwmon/hwmon*}: {@code name}, {@code temp*_input}). A Jetson or
 * a phone also has GPU, battery and skin sensors, often hotter than the CPU; the maximum over all of
 * them would blame a kernel for a hot battery, so they are chosen by {@link ZoneTypes}, and only
 * when no listed kind is readable is the hottest of all taken (and its source says so).
 */
final class ThermalZones {

    /** What {@code temperatureSource} starts with when no listed kind was found. */
    static final String MAX_OF_ALL = "max-of-all";

    private static final Path THERMAL = Path.of("class/thermal");
    private static final Path HWMON = Path.of("class/hwmon");

    /**
     * One temperature sensor.
     *
     * @param source  e.g. {@code thermal_zone0:cpu-thermal} or {@code hwmon2:k10temp/temp1}
     * @param kind    the zone's type or the hwmon device's name; null when unreadable
     * @param celsius null when unreadable or implausible
     * @param zone    the thermal zone's folder (for its trip points); null for a hwmon input
     */
    record Sensor(String source, String kind, Double celsius, Path zone) {}

    /** The chosen sensors and the hottest of them; {@code source} null when no sensor could be read. */
    record Choice(Double celsius, String source, List<Sensor> chosen) {
        static final Choice NONE = new Choice(null, null, List.of());
    }

    private final Sysfs sysfs;
    private final ZoneTypes types;

    ThermalZones(Sysfs sysfs, ZoneTypes types) {
        this.sysfs = sysfs;
        this.types = types;
    }

    Choice choose() {
        List<Sensor> all = sensors();
        for (List<String> group : types.groups()) {
            List<Sensor> chosen = all.stream().filter(s -> ZoneTypes.matches(group, s.kind())).toList();
            Sensor hottest = hottest(chosen);
            if (hottest != null) return new Choice(hottest.celsius(), hottest.source(), chosen);
        }
        Sensor hottest = hottest(all);
        return hottest == null ? Choice.NONE : new Choice(hottest.celsius(), MAX_OF_ALL + ":" + hottest.source(), List.of(hottest));
    }

    /**
     * The lowest {@code passive} or {@code hot} trip point of the chosen thermal zones, degrees
     * Celsius: where the kernel starts holding the clock down. Critical trips (shutdown) and active
     * ones (fans) do not count; 0 is an unset trip (x86_pkg_temp's are, until someone writes them).
     */
    Double tripPointC() {
        Double lowest = null;
        for (Sensor s : choose().chosen()) {
            if (s.zone() == null) continue;
            for (Path type : sysfs.files(s.zone(), "trip_point_*_type")) {
                String t = sysfs.text(type);
                if (!"passive".equals(t) && !"hot".equals(t)) continue;
                String name = type.getFileName().toString();
                Double milliC = sysfs.number(type.resolveSibling(name.substring(0, name.length() - "type".length()) + "temp"));
                if (milliC == null || milliC <= 0) continue;
                double c = milliC / 1000.0;
                if (lowest == null || c < lowest) lowest = c;
            }
        }
        return lowest;
    }

    /** Every temperature sensor of the tree, thermal zones first. */
    List<Sensor> sensors() {
        List<Sensor> out = new ArrayList<>();
        for (Path zone : sysfs.dirs(THERMAL, "thermal_zone*")) {
            String type = sysfs.text(zone.resolve("type"));
            String name = zone.getFileName().toString();
            out.add(new Sensor(type == null ? name : name + ":" + type, type, celsius(zone.resolve("temp")), zone));
        }
        for (Path dev : sysfs.dirs(HWMON, "hwmon*")) {
            String name = sysfs.text(dev.resolve("name"));
            for (Path input : sysfs.files(dev, "temp*_input")) {
                String channel = input.getFileName().toString().replace("_input", "");
                out.add(new Sensor(dev.getFileName() + (name == null ? "" : ":" + name) + "/" + channel, name, celsius(input), null));
            }
        }
        return out;
    }

    /** Millidegrees to degrees; null for what no CPU reads (a disconnected sensor's -273 or 3276.7). */
    private Double celsius(Path file) {
        Double milliC = sysfs.number(file);
        return milliC == null ? null : Plausible.within(milliC / 1000.0, Plausible.MIN_CELSIUS, Plausible.MAX_CELSIUS);
    }

    private static Sensor hottest(List<Sensor> sensors) {
        Sensor best = null;
        for (Sensor s : sensors) if (s.celsius() != null && (best == null || s.celsius() > best.celsius())) best = s;
        return best;
    }
}
