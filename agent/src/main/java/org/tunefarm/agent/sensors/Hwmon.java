package org.tunefarm.agent.sensors;

import java.nio.file.Path;

/**
 * hwmon's power and energy inputs ({@code class/hwmon/hwmon*}: {@code power*_input} in microwatts,
 * {@code energy*_input} in microjoules). Drivers nest their channels (a board's input rail, then
 * the rails it feeds; a socket, then its cores), so the largest is the total. Temperatures are
 * {@link ThermalZones}'.
 */
final class Hwmon {
    private static final Path HWMON = Path.of("class/hwmon");

    private final Sysfs sysfs;

    Hwmon(Sysfs sysfs) {
        this.sysfs = sysfs;
    }

    Double powerW() {
        Double microW = largest("power*_input");
        return microW == null ? null : Plausible.within(microW / 1e6, 0, Plausible.MAX_WATTS);
    }

    Double energyJ() {
        Double microJ = largest("energy*_input");
        return microJ == null || microJ < 0 ? null : microJ / 1e6;
    }

    private Double largest(String glob) {
        Double best = null;
        for (Path dev : sysfs.dirs(HWMON, "hwmon*")) {
            for (Path f : sysfs.files(dev, glob)) {
                Double v = sysfs.number(f);
                if (v != null && (best == null || v > best)) best = v;
            }
        }
        return best;
    }
}
