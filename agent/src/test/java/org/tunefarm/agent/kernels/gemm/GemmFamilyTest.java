package org.tunefarm.agent.kernels.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.GemmSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.space.Parameter;

class GemmFamilyTest {

    private static final GemmFamily FAMILY = new GemmFamily();
    private static final GemmSpec SPEC = new GemmSpec();

    static KernelKey shape(int m, int n, int k) {
        return new KernelKey("gemm", Map.of("M", m, "N", n, "K", k), "fp32");
    }

    /**
     * Draws points from the full product of the shape's domains, constraints or not: the
     * constraints only prune duplicates, so every point must compute the right answer.
     */
    @Test void sampledPointsOfTheSpaceMatchTheReference() {
        SplittableRandom random = new SplittableRandom(7);
        for (KernelKey key : List.of(shape(1, 37, 19), shape(67, 129, 33), shape(1, 1000, 300),
                shape(2, 3, 1), shape(13, 70, 257), shape(130, 9, 40))) {
            GemmWorkload w = (GemmWorkload) FAMILY.workload(key, 11);
            List<Parameter> ps = SPEC.parameters(key, 2);
            for (int s = 0; s < 40; s++) {
                Map<String, Object> cfg = new LinkedHashMap<>();
                for (Parameter p : ps) cfg.put(p.name(), p.values().get(random.nextInt(p.size())));
                if (s % 2 == 0) cfg.put("kernel", "vector"); // most of the code is the vector path
                assertCorrect(w, cfg);
            }
        }
    }

    /** Every micro-tile and packing combination, on a shape ragged against all of them. */
    @Test void everyMicroTileAndPackingMatchesTheReference() {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(shape(19, 83, 45), 3);
        for (int rows : new int[] {1, 2, 3, 4, 6, 8})
            for (int vecs = 1; vecs <= 4; vecs++)
                for (int packA = 0; packA <= 1; packA++)
                    for (int packB = 0; packB <= 1; packB++)
                        for (int threads = 1; threads <= 2; threads++)
                            assertCorrect(w, vector(16, 32, 32, rows, vecs, packA, packB, threads));
    }

    /**
     * A right edge narrower than the tile runs on a narrower written-out kernel (3x3's edge on 3x2
     * or 3x1), into C itself where it fills whole vectors and through the scratch tile where not;
     * across K slices (accumulating) and with a ragged last row block.
     */
    @Test void rightEdgesNarrowerThanTheTileMatchTheReference() {
        int lanes = MicroKernel.lanes();
        for (int[] tile : new int[][] {{3, 3}, {3, 2}, {4, 3}, {6, 4}, {8, 3}}) {
            int width = tile[1] * lanes;
            for (int extra : new int[] {1, lanes / 2 + 1, lanes, 2 * lanes, 2 * lanes + 1}) {
                GemmWorkload w = (GemmWorkload) FAMILY.workload(shape(2 * tile[0] + 1, width + extra, 70), extra);
                for (int packA = 0; packA <= 1; packA++)
                    for (int packB = 0; packB <= 1; packB++)
                        assertCorrect(w, vector(16, 256, 32, tile[0], tile[1], packA, packB, 1));
            }
        }
    }

    @Test void scalarLoopOrdersAndPackingMatchTheReference() {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(shape(37, 71, 53), 5);
        for (String order : new String[] {"ijk", "ikj"})
            for (int packB = 0; packB <= 1; packB++)
                for (int threads = 1; threads <= 3; threads++)
                    assertCorrect(w, scalar(order, 16, 32, 32, packB, threads));
    }

    @Test void gemvLikeShapeMatchesTheReferenceOnBothPaths() {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(shape(1, 1024, 1024), 9);
        assertCorrect(w, SPEC.defaultConfig(w.key(), 2));
        assertCorrect(w, vector(16, 4096, 256, 1, 4, 0, 0, 2));
        assertCorrect(w, vector(16, 512, 128, 1, 3, 0, 0, 1));
        assertCorrect(w, vector(16, 512, 32, 6, 2, 1, 1, 3)); // K split three ways, summed
        assertCorrect(w, scalar("ijk", 16, 512, 32, 1, 2));
    }

    /**
     * The one-row path's 4- and 8-row passes skew their rows across the block (a prologue and an
     * epilogue of 3 or 7 vectors each) when the block holds at least as many whole vectors as rows,
     * and walk column by column when it holds fewer: blocks of 3, 4, 7, 8 and 9 vectors, with a
     * ragged column tail, K not a multiple of 8, N split into several blocks, one and two rows of A,
     * and two threads; every pass size.
     */
    @Test void skewedPassesMatchTheReferenceAtEveryBlockWidth() {
        int lanes = MicroKernel.lanes();
        for (int vectors : new int[] {3, 4, 7, 8, 9}) {
            for (int extra : new int[] {0, lanes / 2 + 1}) {
                for (int m = 1; m <= 2; m++) {
                    int block = vectors * lanes + extra;
                    GemmWorkload w = (GemmWorkload) FAMILY.workload(shape(m, 3 * block + 5, 8 * 9 + 5), vectors + extra);
                    for (int vecs = 1; vecs <= 4; vecs++) { // passes of 2, 4, 6 and 8 rows
                        assertCorrect(w, vector(16, block, 32, 1, vecs, 0, 0, 1));
                        assertCorrect(w, vector(16, 4096, 4096, 1, vecs, 0, 0, 1));
                        assertCorrect(w, vector(1, block, 16, 1, vecs, 0, 0, 2)); // M = 1 splits K, M = 2 splits N
                    }
                }
            }
        }
    }

    @Test void repeatedRunsGiveTheSameAnswer() {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(shape(30, 50, 70), 1);
        try (KernelFamily.Candidate c = FAMILY.candidate(w, vector(16, 32, 32, 6, 2, 1, 1, 2))) {
            c.run();
            double first = c.maxError();
            c.run();
            c.run();
            assertEquals(first, c.maxError()); // C is overwritten, never accumulated across runs
        }
    }

    @Test void droppedProductIsCaughtByTheBound() {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(shape(67, 129, 33), 2);
        try (GemmCandidate c = (GemmCandidate) FAMILY.candidate(w, SPEC.defaultConfig(w.key(), 2))) {
            c.run();
            assertTrue(c.maxError() <= w.errorBound());
            // A kernel that forgets the last step of K: what an off-by-one in a K loop produces.
            float[] out = c.output();
            for (int i = 0; i < w.m; i++)
                for (int j = 0; j < w.n; j++) out[i * w.n + j] -= w.a[i * w.k + w.k - 1] * w.b[(w.k - 1) * w.n + j];
            assertTrue(c.maxError() > w.errorBound(), "maxError " + c.maxError() + " bound " + w.errorBound());
        }
    }

    @Test void corruptedElementOrNanIsCaught() {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(shape(1, 512, 512), 4);
        try (GemmCandidate c = (GemmCandidate) FAMILY.candidate(w, vector(16, 512, 128, 1, 2, 0, 0, 1))) {
            c.run();
            assertTrue(c.maxError() <= w.errorBound());
            c.output()[300] += 0.25f;
            assertTrue(c.maxError() > w.errorBound());
            c.output()[300] = Float.NaN;
            assertEquals(Double.POSITIVE_INFINITY, c.maxError());
        }
    }

    @Test void boundIsFarAboveTheErrorOfAReorderedSum() {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(shape(64, 64, 2048), 8);
        try (KernelFamily.Candidate c = FAMILY.candidate(w, vector(64, 64, 2048, 6, 2, 1, 1, 1))) {
            c.run();
            // Headroom: a correct kernel on an unlucky seed must not be called wrong.
            assertTrue(c.maxError() * 10 < w.errorBound(), "maxError " + c.maxError() + " bound " + w.errorBound());
        }
    }

    @Test void unrunnableConfigurationsAreRejectedByName() {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(shape(8, 8, 8), 1);
        Map<String, Object> ok = vector(16, 32, 32, 6, 2, 1, 1, 1);
        assertThrows(IllegalArgumentException.class, () -> FAMILY.candidate(w, with(ok, "packA", 2)));
        assertThrows(IllegalArgumentException.class, () -> FAMILY.candidate(w, with(ok, "threads", 0)));
        assertThrows(IllegalArgumentException.class, () -> FAMILY.candidate(w, with(ok, "kernel", "gpu")));
        assertThrows(IllegalArgumentException.class, () -> FAMILY.candidate(w, with(ok, "tileQ", 4)));
        Map<String, Object> missing = new HashMap<>(ok);
        missing.remove("tileK");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FAMILY.candidate(w, missing));
        assertTrue(e.getMessage().contains("tileK"), e.getMessage());
    }

    /**
     * The candidate's own workers (other candidates' may be ending in this JVM too) end once it is
     * closed; a pool's thread can still be leaving its run loop as the pool reports terminated, so
     * each is joined, boundedly, rather than looked at once. Without close they wait for work forever.
     */
    @Test void closeStopsTheCandidatesThreads() throws InterruptedException {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(shape(64, 64, 64), 1);
        java.util.Set<Thread> before = workers();
        KernelFamily.Candidate c = FAMILY.candidate(w, vector(16, 32, 32, 6, 2, 1, 1, 2));
        c.run();
        java.util.Set<Thread> mine = workers();
        mine.removeAll(before);
        assertFalse(mine.isEmpty(), "two threads: the team has a helper");
        c.close();
        for (Thread t : mine) {
            t.join(5_000);
            assertFalse(t.isAlive(), t + " outlived the candidate's close");
        }
    }

    private static java.util.Set<Thread> workers() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(ThreadTeam.WORKER_NAME) && t.isAlive())
                .collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
    }

    static void assertCorrect(GemmWorkload w, Map<String, Object> cfg) {
        try (KernelFamily.Candidate c = FAMILY.candidate(w, cfg)) {
            c.run();
            assertTrue(c.maxError() <= w.errorBound(),
                    () -> w.key().id() + " " + cfg + ": maxError " + c.maxError() + " > bound " + w.errorBound());
        }
    }

    static Map<String, Object> vector(int tileM, int tileN, int tileK, int rows, int vecs, int packA, int packB, int threads) {
        return GemmProbe.vector(tileM, tileN, tileK, rows, vecs, packA, packB, threads);
    }

    static Map<String, Object> scalar(String order, int tileM, int tileN, int tileK, int packB, int threads) {
        Map<String, Object> m = vector(tileM, tileN, tileK, 1, 1, 0, packB, threads);
        m.put("kernel", "scalar");
        m.put("loopOrder", order);
        return m;
    }

    private static Map<String, Object> with(Map<String, Object> cfg, String name, Object value) {
        Map<String, Object> m = new HashMap<>(cfg);
        m.put(name, value);
        return m;
    }
}
