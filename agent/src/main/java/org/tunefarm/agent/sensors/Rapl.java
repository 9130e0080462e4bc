package org.tunefarm.agent.sensors;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * The CPU packages' energy counter from powercap RAPL ({@code class/powercap/intel-rapl:N/energy_uj},
 * microjoules; AMD's RAPL appears under the same name), summed over packages. Sub-zones
 * ({@code intel-rapl:0:0}, the cores) and the platform zone ({@code psys}, which includes the
 * packages) would count energy twice and are left out. The counter wraps at
 * {@code max_energy_range_uj}; only differences of readings that did not wrap mean anything.
 *
 * <p>Since Linux 5.10 {@code energy_uj} is readable by root only (the PLATYPUS side channel): the
 * agent then says so once, with how to grant it, and measures without energy.
 */
final class Rapl {
    private static final Logger LOG = Logger.getLogger(Rapl.class.getName());
    private static final Path POWERCAP = Path.of("class/powercap");

    /** Lets the agent's group (tunefarm under systemd) read the counters, no one else. */
    static final String UDEV_RULE = "ACTION==\"add\", SUBSYSTEM==\"powercap\", KERNEL==\"intel-rapl:*\", "
            + "RUN+=\"/bin/chgrp tunefarm /sys%p/energy_uj\", RUN+=\"/bin/chmod g+r /sys%p/energy_uj\"";

    private final Sysfs sysfs;
    private boolean toldUnreadable;

    Rapl(Sysfs sysfs) {
        this.sysfs = sysfs;
    }

    /** Joules since the counters last wrapped, summed over packages; null without RAPL or when unreadable. */
    synchronized Double energyJ() {
        List<Path> files = packages();
        if (files.isEmpty()) return null;
        double microJ = 0;
        for (Path f : files) {
            Double v = sysfs.number(f);
            if (v == null) {
                if (!toldUnreadable && sysfs.denied(f)) {
                    toldUnreadable = true;
                    LOG.warning(() -> "energy: " + f + " is readable by root only (Linux 5.10+), so records carry no energy figure."
                            + " Run the agent as root, or grant its group (tunefarm for the service) read with a udev rule in"
                            + " /etc/udev/rules.d/70-tunefarm-rapl.rules: " + UDEV_RULE
                            + " (then: udevadm trigger --subsystem-match=powercap --action=add)");
                }
                // A sum without one package would look like a board that uses less energy.
                return null;
            }
            microJ += v;
        }
        return microJ / 1e6;
    }

    /** The top-level zones' counters: the packages by name, or every top-level zone when none says. */
    private List<Path> packages() {
        List<Path> named = new ArrayList<>();
        List<Path> all = new ArrayList<>();
        for (Path zone : sysfs.dirs(POWERCAP, "intel-rapl:*")) {
            if (!zone.getFileName().toString().matches("intel-rapl:\\d+")) continue;
            Path counter = zone.resolve("energy_uj");
            String name = sysfs.text(zone.resolve("name"));
            if (name != null && name.startsWith("package")) named.add(counter);
            if (name == null || !name.equals("psys")) all.add(counter);
        }
        return named.isEmpty() ? all : named;
    }
}
