package org.tunefarm.agent.sensors;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * A Jetson's board power from its INA3221 monitors
 * ({@code bus/i2c/drivers/ina3221/*}{@code /hwmon/hwmon*}): each rail's current ({@code currN_input},
 * mA) times its voltage ({@code inN_input}, mV), rails 1 to 3 (the driver's higher channels are
 * shunt voltages and sums). The rail labelled as the module's input ({@code VDD_IN} on Orin and
 * Xavier NX, {@code POM_5V_IN} on Nano) is the total; without one (AGX Orin) the rails are summed.
 * Rails labelled {@code NC} are not connected.
 */
final class Ina3221 {
    private static final Path DRIVER = Path.of("bus/i2c/drivers/ina3221");
    private static final Pattern TOTAL = Pattern.compile("(VDD|POM_5V)_IN");

    private final Sysfs sysfs;

    Ina3221(Sysfs sysfs) {
        this.sysfs = sysfs;
    }

    Double powerW() {
        Double total = null;
        double sum = 0;
        boolean any = false;
        for (Path chip : sysfs.dirs(DRIVER, "*")) {
            for (Path dev : sysfs.dirs(chip.resolve("hwmon"), "hwmon*")) {
                for (int rail = 1; rail <= 3; rail++) {
                    String label = label(dev, rail);
                    if ("NC".equals(label)) continue;
                    Double mA = sysfs.number(dev.resolve("curr" + rail + "_input"));
                    Double mV = sysfs.number(dev.resolve("in" + rail + "_input"));
                    if (mA == null || mV == null) continue;
                    double watts = mA * mV / 1e6;
                    if (label != null && TOTAL.matcher(label).matches()) total = watts;
                    sum += watts;
                    any = true;
                }
            }
        }
        Double w = total != null ? total : any ? sum : null;
        return Plausible.within(w, 0, Plausible.MAX_WATTS);
    }

    private String label(Path dev, int rail) {
        String l = sysfs.text(dev.resolve("in" + rail + "_label"));
        return l != null ? l : sysfs.text(dev.resolve("curr" + rail + "_label"));
    }
}
