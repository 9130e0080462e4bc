package org.tunefarm.agent.kernels.gemm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.kernels.KernelFamily;

/**
 * The team GEMM that shares B's packed panels and deals M out in chunks computes, bit for bit,
 * what one thread computes: every element comes from the same micro-kernel calls in the same K
 * order whoever takes its chunk. Shapes are ragged against the micro-tiles and the blocks, with
 * several N blocks and K slices so the team passes its barriers many times a call.
 */
class SharedPanelGemmTest {

    private static final GemmFamily FAMILY = new GemmFamily();

    @Test void everyTeamSizeComputesWhatOneThreadComputes() {
        int[][] shapes = {{67, 45, 70}, {130, 129, 33}, {97, 97, 97}, {200, 24, 257}};
        int[][] tiles = {{3, 3}, {4, 2}, {6, 1}, {2, 4}};
        for (int[] s : shapes) {
            GemmWorkload w = (GemmWorkload) FAMILY.workload(GemmFamilyTest.shape(s[0], s[1], s[2]), 5);
            for (int[] tile : tiles)
                for (int pack = 0; pack < 4; pack++) {
                    int packA = pack & 1, packB = pack >> 1;
                    float[] one = output(w, GemmFamilyTest.vector(24, 32, 16, tile[0], tile[1], packA, packB, 1));
                    for (int threads = 2; threads <= 4; threads++) {
                        Map<String, Object> cfg = GemmFamilyTest.vector(24, 32, 16, tile[0], tile[1], packA, packB, threads);
                        for (int call = 0; call < 2; call++) { // a later call reuses the barrier and the chunk counter
                            float[] team = output(w, cfg);
                            assertArrayEquals(one, team, () -> w.key().id() + " " + cfg);
                        }
                    }
                }
        }
    }

    @Test void aCandidateCalledAgainKeepsItsAnswer() {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(GemmFamilyTest.shape(150, 100, 90), 9);
        try (KernelFamily.Candidate c = FAMILY.candidate(w, GemmFamilyTest.vector(32, 48, 32, 3, 3, 1, 1, 2))) {
            SharedPanelGemm shared = assertInstanceOf(SharedPanelGemm.class, c);
            assertEquals(2, shared.threads());
            c.run();
            float[] first = shared.output().clone();
            for (int call = 0; call < 200; call++) {
                c.run();
                assertArrayEquals(first, shared.output(), "call " + call);
            }
            assertTrue(c.maxError() <= w.errorBound());
        }
    }

    /** Tall or square C takes the shared path; wide C, one row of micro-tiles and one thread keep their own splits. */
    @Test void onlyTallOrSquareCOnSeveralThreadsSharesB() {
        assertShared(true, 64, 64, 64, 3, 2);
        assertShared(true, 512, 100, 64, 4, 2);
        assertShared(false, 64, 512, 64, 3, 2);
        assertShared(false, 3, 2, 64, 3, 2);
        assertShared(false, 64, 64, 64, 3, 1);
    }

    /** A team never has more threads than M has chunks. */
    @Test void fewChunksFewThreads() {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(GemmFamilyTest.shape(6, 6, 40), 1);
        try (KernelFamily.Candidate c = FAMILY.candidate(w, GemmFamilyTest.vector(32, 32, 32, 3, 1, 1, 1, 4))) {
            assertEquals(2, assertInstanceOf(SharedPanelGemm.class, c).threads());
            c.run();
            assertTrue(c.maxError() <= w.errorBound());
        }
    }

    private static void assertShared(boolean expected, int m, int n, int k, int rows, int threads) {
        GemmWorkload w = (GemmWorkload) FAMILY.workload(GemmFamilyTest.shape(m, n, k), 1);
        try (KernelFamily.Candidate c = FAMILY.candidate(w, GemmFamilyTest.vector(32, 32, 32, rows, 1, 1, 1, threads))) {
            assertEquals(expected, c instanceof SharedPanelGemm, m + "x" + n + "x" + k + " t" + threads);
            c.run();
            assertTrue(c.maxError() <= w.errorBound());
        }
    }

    private static float[] output(GemmWorkload w, Map<String, Object> cfg) {
        try (KernelFamily.Candidate c = FAMILY.candidate(w, cfg)) {
            c.run();
            assertTrue(c.maxError() <= w.errorBound(), () -> w.key().id() + " " + cfg + ": maxError " + c.maxError());
            return c instanceof SharedPanelGemm s ? s.output().clone() : ((GemmCandidate) c).output().clone();
        }
    }
}
