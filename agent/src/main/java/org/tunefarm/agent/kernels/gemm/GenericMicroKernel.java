package org.tunefarm.agent.kernels.gemm;

import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Any micro-tile: the accumulators live in a scratch tile in L1 rather than in registers, so
 * each FMA costs a load and a store. Correct for every shape, fast for none: every tile the spaces
 * offer has a written-out kernel in {@link UnrolledMicroKernels}, and this one runs only tiles
 * outside them (tests, a hand-written point). Holds scratch: one per thread.
 */
final class GenericMicroKernel implements MicroKernel {

    private static final VectorSpecies<Float> S = UnrolledMicroKernels.S;
    private static final int L = S.length();

    private final int rows, vecs, width;
    private final float[] tile;

    GenericMicroKernel(int rows, int vecs) {
        this.rows = rows;
        this.vecs = vecs;
        this.width = vecs * L;
        this.tile = new float[rows * width];
    }

    @Override public void runSegments(int segments, int aSeg, int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                                      float[] c, int ci, int ldc, boolean accumulate) {
        Arrays.fill(tile, 0f);
        for (int seg = 0, jump = aSeg - kc * aCs; seg < segments; seg++, ai += jump) {
            for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
                for (int r = 0; r < rows; r++) {
                    FloatVector ar = FloatVector.broadcast(S, a[ai + r * aRs]);
                    for (int v = 0; v < vecs; v++) {
                        int t = r * width + v * L;
                        Fma.madd(ar, FloatVector.fromArray(S, b, bi + v * L), FloatVector.fromArray(S, tile, t)).intoArray(tile, t);
                    }
                }
            }
        }
        for (int r = 0; r < rows; r++) {
            for (int v = 0; v < vecs; v++) {
                FloatVector acc = FloatVector.fromArray(S, tile, r * width + v * L);
                int at = ci + r * ldc + v * L;
                (accumulate ? acc.add(FloatVector.fromArray(S, c, at)) : acc).intoArray(c, at);
            }
        }
    }
}
