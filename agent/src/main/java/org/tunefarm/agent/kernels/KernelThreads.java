package org.tunefarm.agent.kernels;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The threads that run kernel work in this JVM (the harness's thread and each candidate's team),
 * by their Linux thread ids, so the harness can read how long they waited, runnable, for a CPU
 * while a sample ran: the run delay ({@code /proc/self/task/<tid>/schedstat}, second field). A
 * sample whose threads waited is a sample another process preempted, however plausible its time
 * looks. The JVM's other threads (GC, JIT) are not counted: their waits say nothing of the kernel.
 *
 * <p>Where there is no {@code /proc} (not Linux), nothing registers and {@link #runDelayNanos}
 * answers -1: unknown.
 */
public final class KernelThreads {

    private static final Path SELF = Path.of("/proc/thread-self");
    /** Weak keys: a closed candidate's threads leave the registry with their Thread objects. */
    private static final Map<Thread, Path> SCHEDSTAT = new WeakHashMap<>();

    private KernelThreads() {}

    /** Registers the calling thread as one that runs kernel work; harmless when called again or off Linux. */
    public static void register() {
        Path stat;
        try {
            stat = Path.of("/proc").resolve(Files.readSymbolicLink(SELF)).resolve("schedstat");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return;
        }
        synchronized (SCHEDSTAT) {
            SCHEDSTAT.put(Thread.currentThread(), stat);
        }
    }

    /**
     * Nanoseconds the live registered threads have waited, runnable, for a CPU since they started;
     * -1 when none is registered or none could be read. Differences count.
     */
    public static long runDelayNanos() {
        List<Path> stats = new ArrayList<>();
        synchronized (SCHEDSTAT) {
            SCHEDSTAT.forEach((t, p) -> {
                if (t.isAlive()) stats.add(p);
            });
        }
        long sum = 0;
        boolean any = false;
        for (Path p : stats) {
            long d = delay(p);
            if (d < 0) continue;
            sum += d;
            any = true;
        }
        return any ? sum : -1;
    }

    /** The second of schedstat's three fields: time spent on the runqueue, waiting; -1 when unreadable. */
    static long delay(Path schedstat) {
        try {
            String[] f = Files.readString(schedstat).trim().split("\\s+");
            return f.length >= 2 ? Long.parseLong(f[1]) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }
}
