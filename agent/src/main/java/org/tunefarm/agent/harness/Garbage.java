package org.tunefarm.agent.harness;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The JVM's collections, as the harness sees them: a sample during which one ran is set aside
 * (its pause is the JVM's, not the kernel's), and the garbage earlier candidates left is
 * collected before a candidate, so that few samples need setting aside, but only when there is
 * enough of it to fill a young generation soon. Collecting before every candidate made the
 * harness wait about 12 ms each time (a full collection), ten times a short candidate's own
 * samples; a kernel allocates little while it is timed (its workload is built before), so
 * waiting until garbage amounts to {@link #SHARE_OF_HEAP} of the heap keeps collections out of
 * nearly every sample at a fraction of that cost, and those it does not are caught.
 */
final class Garbage {
    /** Garbage beyond this share of the committed heap is collected before the next candidate (G1's smallest young generation is 5%). */
    static final double SHARE_OF_HEAP = 1.0 / 16;

    /** A JVM without collections: nothing is collected and no sample is set aside (tests with a fake clock). */
    static final Garbage NONE = new Garbage(() -> 0, () -> 0, () -> 1, () -> {});

    private final LongSupplier collections;
    private final LongSupplier usedBytes;
    private final LongSupplier committedBytes;
    private final Runnable collect;
    /** Heap in use right after the last collection this harness asked for; -1 before the first. */
    private long usedAfterCollecting = -1;

    Garbage(LongSupplier collections, LongSupplier usedBytes, LongSupplier committedBytes, Runnable collect) {
        this.collections = collections;
        this.usedBytes = usedBytes;
        this.committedBytes = committedBytes;
        this.collect = collect;
    }

    /** This JVM's collectors and heap. */
    static Garbage ofThisJvm() {
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        Runtime rt = Runtime.getRuntime();
        return new Garbage(() -> {
            long n = 0;
            for (GarbageCollectorMXBean c : collectors) n += Math.max(0, c.getCollectionCount());
            return n;
        }, () -> rt.totalMemory() - rt.freeMemory(), rt::totalMemory, System::gc);
    }

    /** Collections so far, of every collector: a change across a sample means one ran during it. */
    long collections() {
        return collections.getAsLong();
    }

    /**
     * Collects when the heap holds more than {@link #SHARE_OF_HEAP} of its size beyond what was
     * live after the last collection (always the first time); says whether it did.
     */
    boolean collectIfWorthIt() {
        long used = usedBytes.getAsLong();
        if (usedAfterCollecting >= 0 && used - usedAfterCollecting <= SHARE_OF_HEAP * committedBytes.getAsLong()) return false;
        collect.run();
        usedAfterCollecting = usedBytes.getAsLong();
        return true;
    }
}
