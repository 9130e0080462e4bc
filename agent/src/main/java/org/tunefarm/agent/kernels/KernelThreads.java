package org.tunefarm.agent.kernels;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The threads that run kernel work in this JVM (the harness's thread and each candidate's team),
 * by their Linux thread ids, so the harness can read how long they waited, runnable, for a CPU
 * while a sample ran: the run delay ({@code /proc/self/task/<tid>/schedstat}, second field). A
 * sample whose threads waited is a sample another process preempted, however plausible its time
 * looks. The JVM's other threads (GC, JIT) are not counted: their waits say nothing of the kernel.
 *
 * <p>Each thread's file is opened once, when it registers, and read again from its start for
 * every reading (the kernel writes it anew for each read from offset 0): the harness reads twice
 * per sample, and opening the file each time cost about 0.35 ms a reading, more than a short
 * candidate's sample. A thread that has ended leaves the registry, and its file is closed, at the
 * next registration or reading.
 *
 * <p>Where there is no {@code /proc} (not Linux), nothing registers and {@link #runDelayNanos}
 * answers -1: unknown.
 */
public final class KernelThreads {

    private static final Path SELF = Path.of("/proc/thread-self");
    private static final Map<Thread, Schedstat> REGISTERED = new HashMap<>();

    private KernelThreads() {}

    /** Registers the calling thread as one that runs kernel work; harmless when called again or off Linux. */
    public static void register() {
        Thread me = Thread.currentThread();
        synchronized (REGISTERED) {
            if (REGISTERED.containsKey(me)) return;
        }
        Schedstat stat = Schedstat.open();
        if (stat == null) return;
        synchronized (REGISTERED) {
            forgetEnded();
            REGISTERED.put(me, stat);
        }
    }

    /**
     * Nanoseconds the live registered threads have waited, runnable, for a CPU since they started;
     * -1 when none is registered or none could be read. Differences count.
     */
    public static long runDelayNanos() {
        List<Schedstat> stats = new ArrayList<>();
        synchronized (REGISTERED) {
            forgetEnded();
            stats.addAll(REGISTERED.values());
        }
        long sum = 0;
        boolean any = false;
        for (Schedstat s : stats) {
            long d = s.runDelay();
            if (d < 0) continue;
            sum += d;
            any = true;
        }
        return any ? sum : -1;
    }

    /** Threads registered and still alive: for tests. */
    static int registered() {
        synchronized (REGISTERED) {
            forgetEnded();
            return REGISTERED.size();
        }
    }

    private static void forgetEnded() {
        for (Iterator<Map.Entry<Thread, Schedstat>> it = REGISTERED.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Thread, Schedstat> e = it.next();
            if (e.getKey().isAlive()) continue;
            e.getValue().close();
            it.remove();
        }
    }

    /** One thread's schedstat file, kept open. */
    private static final class Schedstat {
        private final FileChannel file;
        private final ByteBuffer buffer = ByteBuffer.allocate(128);

        private Schedstat(FileChannel file) {
            this.file = file;
        }

        /** The calling thread's file; null where it cannot be opened. */
        static Schedstat open() {
            try {
                Path path = Path.of("/proc").resolve(Files.readSymbolicLink(SELF)).resolve("schedstat");
                return new Schedstat(FileChannel.open(path, StandardOpenOption.READ));
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                return null;
            }
        }

        /** The second of schedstat's three fields: time spent on the runqueue, waiting; -1 when unreadable. */
        synchronized long runDelay() {
            try {
                buffer.clear();
                int n = file.read(buffer, 0);
                return n <= 0 ? -1 : secondField(buffer.array(), n);
            } catch (IOException e) {
                return -1;
            }
        }

        synchronized void close() {
            try {
                file.close();
            } catch (IOException ignored) {
                // a read-only file: nothing is lost
            }
        }
    }

    /** The second space-separated decimal field of {@code text[0..n)}; -1 when there is none. */
    static long secondField(byte[] text, int n) {
        int i = 0;
        while (i < n && text[i] != ' ') i++; // the first field
        while (i < n && text[i] == ' ') i++;
        if (i == n) return -1;
        long v = 0;
        int start = i;
        for (; i < n && text[i] >= '0' && text[i] <= '9'; i++) v = v * 10 + (text[i] - '0');
        return i == start ? -1 : v;
    }
}
