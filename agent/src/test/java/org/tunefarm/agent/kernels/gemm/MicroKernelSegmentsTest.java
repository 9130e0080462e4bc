package org.tunefarm.agent.kernels.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Every written-out kernel, and the generic one, over each of its walks (packed panels, A's rows
 * in place in one or several segments, strided) against a plain sum: a walk that drops a step, a
 * segment or a row of the tile fails here, not only as a wrong convolution somewhere later.
 */
class MicroKernelSegmentsTest {

    private static final int L = MicroKernel.lanes();

    @Test void everyKernelsWalksMatchAPlainSum() {
        SplittableRandom random = new SplittableRandom(11);
        for (int[] t : MicroKernelSource.TILES) {
            check(MicroKernel.writtenOut(t[0], t[1]), t[0], t[1], random);
            check(new GenericMicroKernel(t[0], t[1]), t[0], t[1], random);
        }
    }

    private static void check(MicroKernel kernel, int rows, int vecs, SplittableRandom random) {
        int width = vecs * L, kc = 7;
        // Packed panels: A as [kc][rows], B as [kc][width].
        walk(kernel, rows, width, random, 1, 0, kc, 1, rows, width);
        // Strided: A rows 13 apart, steps 2 apart; B rows width + 5 apart.
        walk(kernel, rows, width, random, 1, 0, kc, 13, 2, width + 5);
        // A's rows in place (steps contiguous) against packed B: one run, and three runs 101 apart
        // (a convolution's filter rows).
        walk(kernel, rows, width, random, 1, 0, kc, 13, 1, width);
        walk(kernel, rows, width, random, 3, 101, kc, 13, 1, width);
        // Three runs with strides no fast walk takes: reduced run after run.
        walk(kernel, rows, width, random, 3, 101, kc, 13, 2, width + 5);
    }

    private static void walk(MicroKernel kernel, int rows, int width, SplittableRandom random,
                             int segments, int aSeg, int kc, int aRs, int aCs, int bRs) {
        int ai = 3, bi = 5, ldc = width + 3, ci = 2;
        float[] a = fill(new float[ai + segments * aSeg + rows * aRs + kc * aCs + 1], random);
        float[] b = fill(new float[bi + segments * kc * bRs + width], random);
        for (boolean accumulate : new boolean[] {false, true}) {
            float[] c = fill(new float[ci + rows * ldc], random);
            float[] expected = c.clone();
            for (int r = 0; r < rows; r++) {
                for (int j = 0; j < width; j++) {
                    double sum = 0;
                    for (int s = 0; s < segments; s++) {
                        for (int p = 0; p < kc; p++) {
                            sum += (double) a[ai + s * aSeg + r * aRs + p * aCs] * b[bi + (s * kc + p) * bRs + j];
                        }
                    }
                    int at = ci + r * ldc + j;
                    expected[at] = (float) ((accumulate ? expected[at] : 0) + sum);
                }
            }
            kernel.runSegments(segments, aSeg, kc, a, ai, aRs, aCs, b, bi, bRs, c, ci, ldc, accumulate);
            for (int i = 0; i < c.length; i++) {
                assertEquals(expected[i], c[i], 1e-4, rows + "x" + width / L + " " + kernel.getClass().getSimpleName()
                        + " segments " + segments + " aRs " + aRs + " aCs " + aCs + " accumulate " + accumulate + " at " + i);
            }
        }
    }

    private static float[] fill(float[] x, SplittableRandom random) {
        for (int i = 0; i < x.length; i++) x[i] = (float) random.nextDouble(-1, 1);
        return x;
    }
}
