package org.tunefarm.agent.kernels.gemm;

import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector path with one-row micro-tiles: i-k-j, each C row block (tileN wide, in L1) updated
 * by a vector FMA with each row of B in turn. When M is small, as in GEMV, B is read once and
 * the kernel is bound by memory bandwidth; reading B row by row streams it sequentially, which
 * the hardware prefetchers follow, where a micro-panel walk would jump a row stride every step.
 * {@code microVecs} vectors are updated per step of the inner loop.
 */
final class RowStreamGemm implements RegionKernel {

    private static final VectorSpecies<Float> S = UnrolledMicroKernels.S;
    private static final int L = S.length();

    private final float[] a, b;
    private final int n, k;
    private final int vecs, tileM, tileN, tileK;

    RowStreamGemm(GemmWorkload w, GemmConfig config) {
        a = w.a;
        b = w.b;
        n = w.n;
        k = w.k;
        vecs = config.microVecs();
        tileM = Math.min(config.tileM(), w.m);
        tileN = Math.min(config.tileN(), w.n);
        tileK = Math.min(config.tileK(), w.k);
    }

    @Override public void compute(float[] c, int m0, int m1, int n0, int n1, int k0, int k1) {
        for (int i = m0; i < m1; i++) Arrays.fill(c, i * n + n0, i * n + n1, 0f);
        for (int jc = n0; jc < n1; jc += tileN) {
            int jEnd = Math.min(jc + tileN, n1);
            for (int pc = k0; pc < k1; pc += tileK) {
                int pEnd = Math.min(pc + tileK, k1);
                // B[pc:pEnd, jc:jEnd] is reused by each row of the M block while it sits in cache.
                for (int ic = m0; ic < m1; ic += tileM) {
                    int iEnd = Math.min(ic + tileM, m1);
                    for (int i = ic; i < iEnd; i++) row(c, i, jc, jEnd, pc, pEnd);
                }
            }
        }
    }

    private void row(float[] c, int i, int jc, int jEnd, int pc, int pEnd) {
        int cRow = i * n, step = vecs * L;
        for (int p = pc; p < pEnd; p++) {
            float aip = a[i * k + p];
            FloatVector av = FloatVector.broadcast(S, aip);
            int bRow = p * n;
            int j = jc;
            for (; j + step <= jEnd; j += step) {
                for (int v = 0; v < vecs; v++) {
                    int o = j + v * L;
                    Fma.madd(av, FloatVector.fromArray(S, b, bRow + o), FloatVector.fromArray(S, c, cRow + o)).intoArray(c, cRow + o);
                }
            }
            for (; j + L <= jEnd; j += L) {
                Fma.madd(av, FloatVector.fromArray(S, b, bRow + j), FloatVector.fromArray(S, c, cRow + j)).intoArray(c, cRow + j);
            }
            for (; j < jEnd; j++) c[cRow + j] += aip * b[bRow + j];
        }
    }
}
