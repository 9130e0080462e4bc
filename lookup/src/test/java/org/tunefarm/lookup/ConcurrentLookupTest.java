package org.tunefarm.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One view shared by many threads answers each of them what it answers one; lookups allocate nothing. */
class ConcurrentLookupTest {

    private static final KernelIndex GEMM = Fleet.table().forDevice(Device.ofClass(Fleet.ZEN_2C)).kernel("gemm", "fp32").orElseThrow();

    /** Shapes around the tuned ones: exact, near and far, in the index's order (K, M, N). */
    private static int[][] shapes(long seed, int count) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] sizes = {1, 2, 64, 256, 384, 512, 768, 1024, 1536, 2048, 4096, 8192};
        int[][] out = new int[count][];
        for (int i = 0; i < count; i++) out[i] = new int[] {sizes[r.nextInt(sizes.length)], sizes[r.nextInt(sizes.length)], sizes[r.nextInt(sizes.length)]};
        return out;
    }

    @Test void threadsAgreeWithOneThread() throws Exception {
        int[][] shapes = shapes(7, 4096);
        Answer[] expected = new Answer[shapes.length];
        for (int i = 0; i < shapes.length; i++) expected[i] = GEMM.lookup(shapes[i]);
        // All three rules occur, so every path runs concurrently.
        for (ShapeRule rule : ShapeRule.values()) {
            assertTrue(java.util.Arrays.stream(expected).anyMatch(a -> a != null && a.shapeRule() == rule), rule + " never answered");
        }
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Callable<Answer[]>> jobs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t * 97;
                jobs.add(() -> {
                    Answer[] got = new Answer[shapes.length];
                    for (int round = 0; round < 50; round++) {
                        for (int i = 0; i < shapes.length; i++) {
                            int j = (i + offset) % shapes.length;
                            got[j] = GEMM.lookup(shapes[j]);
                        }
                    }
                    return got;
                });
            }
            for (Future<Answer[]> f : pool.invokeAll(jobs)) {
                Answer[] got = f.get();
                for (int i = 0; i < shapes.length; i++) assertSame(expected[i], got[i], "shape " + java.util.Arrays.toString(shapes[i]));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test void lookupsAllocateNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int[][] shapes = shapes(11, 1024);
        long sink = 0;
        for (int round = 0; round < 20; round++) for (int[] s : shapes) sink += GEMM.lookup(s).hashCode();
        int lookups = 200_000;
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < lookups; i++) sink += System.identityHashCode(GEMM.lookup(shapes[i & 1023]));
        long bytes = mx.getCurrentThreadAllocatedBytes() - before;
        // The counter itself allocates a little; a lookup that allocated would cost 16+ bytes each.
        assertTrue(bytes < lookups / 100, bytes + " bytes over " + lookups + " lookups (" + sink + ")");
    }
}
