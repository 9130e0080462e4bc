package org.tunefarm.agent.sensors;

import java.nio.file.Path;

/**
 * The CPU clock from cpufreq ({@code devices/system/cpu/cpuN/cpufreq}, kHz), the fastest core's.
 * {@code cpuinfo_cur_freq} is what the hardware runs at; {@code scaling_cur_freq} may be only what
 * the governor asked for, so it is read only when the other is absent (intel_pstate has none) or
 * unreadable (root-only on many kernels), and the reading names which one it used.
 */
final class CpuClock {

    static final String HARDWARE = "cpuinfo_cur_freq";
    static final String REQUESTED = "scaling_cur_freq";

    /** The clock and the file it came from (null when unread), and the CPU's highest clock, MHz. */
    record Reading(Double mhz, String source, Double maxMhz) {}

    private static final Path CPUS = Path.of("devices/system/cpu");

    private final Sysfs sysfs;

    CpuClock(Sysfs sysfs) {
        this.sysfs = sysfs;
    }

    Reading read() {
        Double mhz = fastest(HARDWARE);
        String source = HARDWARE;
        if (mhz == null) {
            mhz = fastest(REQUESTED);
            source = REQUESTED;
        }
        return new Reading(mhz, mhz == null ? null : source, fastest("cpuinfo_max_freq"));
    }

    /** The largest of the cores' {@code cpufreq/<file>}, MHz; null when no core has it readable. */
    private Double fastest(String file) {
        Double best = null;
        // cpu[0-9]* leaves out cpu/cpufreq/policyN, which repeats the cores.
        for (Path cpu : sysfs.dirs(CPUS, "cpu[0-9]*")) {
            Double kHz = sysfs.number(cpu.resolve("cpufreq").resolve(file));
            Double mhz = kHz == null ? null : Plausible.within(kHz / 1000.0, Double.MIN_VALUE, Plausible.MAX_MHZ);
            if (mhz != null && (best == null || mhz > best)) best = mhz;
        }
        return best;
    }
}
