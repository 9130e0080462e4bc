package org.tunefarm.agent.kernels.gemm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The packed GEMM the conv families multiply with: with its filters (B) packed once, every call
 * over all of B's columns reads the prepacked panels, a call over part of them packs its own, and
 * both give A·B, whatever the blocks, the tile and the ragged edges.
 */
class PackedGemmTest {

    @Test void filtersPackedOnceGiveTheSameProductAsPackingPerCall() {
        SplittableRandom random = new SplittableRandom(5);
        int lanes = PackedGemm.lanes();
        for (int[] tile : new int[][] {{3, 3}, {4, 2}, {6, 2}, {8, 3}, {2, 4}}) {
            for (int[] shape : new int[][] {{13, 3 * lanes * 2 + 5, 70}, {40, lanes, 9}, {7, 5 * lanes + 1, 300}}) {
                int m = shape[0], n = shape[1], k = shape[2];
                float[] a = fill(random, m * k), b = fill(random, k * n);
                float[] expected = reference(a, b, m, n, k);
                for (int[] blocks : new int[][] {{16, 32, 32}, {64, 1024, 1024}, {8, 2 * lanes, 16}}) {
                    PackedGemm once = new PackedGemm(a, b, m, n, k, blocks[0], blocks[1], blocks[2], tile[0], tile[1], true, true).packFiltersOnce();
                    PackedGemm perCall = new PackedGemm(a, b, m, n, k, blocks[0], blocks[1], blocks[2], tile[0], tile[1], true, true);
                    String what = tile[0] + "x" + tile[1] + " " + m + "x" + n + "x" + k + " blocks " + blocks[0] + "/" + blocks[1] + "/" + blocks[2];
                    for (int call = 0; call < 2; call++) { // a second call reads the same panels again
                        float[] c1 = new float[m * n], c2 = new float[m * n];
                        once.multiply(c1, 0, m, 0, n);
                        perCall.multiply(c2, 0, m, 0, n);
                        assertClose(expected, c1, k, what + " prepacked, call " + call);
                        assertClose(expected, c2, k, what + " packed per call");
                    }
                    // Rows in two calls, as two threads share them; and part of the columns, which packs its own.
                    float[] halves = new float[m * n];
                    once.multiply(halves, 0, m / 2, 0, n);
                    once.multiply(halves, m / 2, m, 0, n);
                    assertClose(expected, halves, k, what + " rows split");
                    float[] part = new float[m * n];
                    once.multiply(part, 0, m, 0, n - 1);
                    for (int i = 0; i < m; i++) part[i * n + n - 1] = expected[i * n + n - 1];
                    assertClose(expected, part, k, what + " all but the last column");
                }
            }
        }
    }

    private static float[] fill(SplittableRandom random, int size) {
        float[] v = new float[size];
        for (int i = 0; i < size; i++) v[i] = (float) (random.nextDouble() * 2 - 1);
        return v;
    }

    private static float[] reference(float[] a, float[] b, int m, int n, int k) {
        float[] c = new float[m * n];
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int p = 0; p < k; p++) s += (double) a[i * k + p] * b[p * n + j];
                c[i * n + j] = (float) s;
            }
        return c;
    }

    private static void assertClose(float[] expected, float[] actual, int k, String what) {
        double bound = 1e-5 * k + 1e-5;
        for (int i = 0; i < expected.length; i++) {
            int at = i;
            assertTrue(Math.abs(expected[i] - actual[i]) <= bound, () -> what + ": element " + at + " is " + actual[at] + ", expected " + expected[at]);
        }
    }
}
