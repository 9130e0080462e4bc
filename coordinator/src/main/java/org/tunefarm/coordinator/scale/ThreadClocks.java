package org.tunefarm.coordinator.scale;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Per-thread clocks of another process, from Linux's {@code /proc/PID/task/TID/schedstat}: time
 * on a CPU and time runnable but waiting for one. The wait tells a busy event loop from a starved
 * one: on a shared machine a coordinator can be slow with its CPU share low, because its threads
 * queue for a core. Empty where /proc is not there.
 */
final class ThreadClocks {
    /** One thread's clocks, ns since it started. */
    record Clock(String name, long cpuNs, long waitNs) {}

    private ThreadClocks() {}

    /** The process's threads by id; empty when unreadable (not Linux, or the process is gone). */
    static Map<Long, Clock> of(long pid) {
        Map<Long, Clock> out = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String[] f = Files.readString(t.resolve("schedstat")).trim().split("\\s+");
                    out.put(Long.parseLong(t.getFileName().toString()), new Clock(Files.readString(t.resolve("comm")).trim(), Long.parseLong(f[0]), Long.parseLong(f[1])));
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return out;
    }

    /**
     * Of the threads whose name starts with {@code prefix} (Linux keeps 15 characters of a name), the busiest between the two readings:
     * {@code [cpu share, wait share]} of the wall time, or NaNs when nothing was read.
     */
    static double[] busiest(Map<Long, Clock> before, Map<Long, Clock> after, String prefix, double wallSeconds) {
        double cpu = Double.NaN;
        double wait = Double.NaN;
        for (var e : after.entrySet()) {
            Clock b = before.get(e.getKey());
            Clock a = e.getValue();
            if (b == null || !a.name().startsWith(prefix)) continue;
            double c = (a.cpuNs() - b.cpuNs()) / 1e9 / wallSeconds;
            if (Double.isNaN(cpu) || c > cpu) {
                cpu = c;
                wait = (a.waitNs() - b.waitNs()) / 1e9 / wallSeconds;
            }
        }
        return new double[] {cpu, wait};
    }

    /** All threads' wait for a CPU between the two readings, per wall second. */
    static double totalWait(Map<Long, Clock> before, Map<Long, Clock> after, double wallSeconds) {
        if (after.isEmpty()) return Double.NaN;
        long ns = 0;
        for (var e : after.entrySet()) {
            Clock b = before.get(e.getKey());
            ns += e.getValue().waitNs() - (b == null ? 0 : b.waitNs());
        }
        return ns / 1e9 / wallSeconds;
    }
}
