package org.tunefarm.agent.kernels.gemm;

import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector path with one-row micro-tiles: i-k-j, each C row block (tileN wide, in L1) updated
 * with several rows of B per pass. When M is small, as in GEMV, B is read once and the kernel is
 * bound by memory bandwidth; reading B row by row streams it sequentially, which the hardware
 * prefetchers follow, where a micro-panel walk would jump a row stride every step.
 *
 * <p>{@code microVecs} sets how many rows of B each pass over the C block takes: 2 x microVecs
 * (2, 4, 6 or 8). A pass loads each C vector once, adds that many A x B products in two
 * independent chains, and stores it once, so C's loads and stores cost a fraction of a B row each
 * and several B streams are in flight: one row per pass read barely 0.45x of the machine's read
 * bandwidth on Zen 4, eight rows about 0.9x. Every pass holds its A broadcasts in registers, at
 * most 8 plus two accumulators and a B vector: within AVX2's 16. The passes are written out per
 * size, like the micro-kernels, so that C2 keeps the broadcasts in registers (an array of them
 * would live in memory).
 */
final class RowStreamGemm implements RegionKernel {

    private static final VectorSpecies<Float> S = UnrolledMicroKernels.S;
    private static final int L = S.length();

    private final float[] a, b;
    private final int n, k;
    private final int rowsPerPass, tileM, tileN, tileK;

    RowStreamGemm(GemmWorkload w, GemmConfig config) {
        a = w.a;
        b = w.b;
        n = w.n;
        k = w.k;
        rowsPerPass = 2 * Math.min(4, config.microVecs());
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
        int cRow = i * n, aRow = i * k;
        int p = pc;
        for (; p + rowsPerPass <= pEnd; p += rowsPerPass) {
            switch (rowsPerPass) {
                case 8 -> pass8(c, cRow, aRow + p, p * n, jc, jEnd);
                case 6 -> pass6(c, cRow, aRow + p, p * n, jc, jEnd);
                case 4 -> pass4(c, cRow, aRow + p, p * n, jc, jEnd);
                default -> pass2(c, cRow, aRow + p, p * n, jc, jEnd);
            }
        }
        for (; p < pEnd; p++) pass1(c, cRow, aRow + p, p * n, jc, jEnd);
    }

    private void pass1(float[] c, int cRow, int ap, int bRow, int jc, int jEnd) {
        float aip = a[ap];
        FloatVector a0 = FloatVector.broadcast(S, aip);
        int j = jc;
        for (; j + L <= jEnd; j += L) {
            Fma.madd(a0, FloatVector.fromArray(S, b, bRow + j), FloatVector.fromArray(S, c, cRow + j)).intoArray(c, cRow + j);
        }
        for (; j < jEnd; j++) c[cRow + j] += aip * b[bRow + j];
    }

    private void pass2(float[] c, int cRow, int ap, int r0, int jc, int jEnd) {
        FloatVector a0 = FloatVector.broadcast(S, a[ap]), a1 = FloatVector.broadcast(S, a[ap + 1]);
        int r1 = r0 + n;
        int j = jc;
        for (; j + L <= jEnd; j += L) {
            FloatVector x = Fma.madd(a0, FloatVector.fromArray(S, b, r0 + j), FloatVector.fromArray(S, c, cRow + j));
            Fma.madd(a1, FloatVector.fromArray(S, b, r1 + j), x).intoArray(c, cRow + j);
        }
        tail(c, cRow, ap, r0, 2, j, jEnd);
    }

    private void pass4(float[] c, int cRow, int ap, int r0, int jc, int jEnd) {
        FloatVector a0 = FloatVector.broadcast(S, a[ap]), a1 = FloatVector.broadcast(S, a[ap + 1]);
        FloatVector a2 = FloatVector.broadcast(S, a[ap + 2]), a3 = FloatVector.broadcast(S, a[ap + 3]);
        int r1 = r0 + n, r2 = r1 + n, r3 = r2 + n;
        int j = jc;
        for (; j + L <= jEnd; j += L) {
            FloatVector x = Fma.madd(a0, FloatVector.fromArray(S, b, r0 + j), FloatVector.fromArray(S, c, cRow + j));
            FloatVector y = a2.mul(FloatVector.fromArray(S, b, r2 + j));
            x = Fma.madd(a1, FloatVector.fromArray(S, b, r1 + j), x);
            y = Fma.madd(a3, FloatVector.fromArray(S, b, r3 + j), y);
            x.add(y).intoArray(c, cRow + j);
        }
        tail(c, cRow, ap, r0, 4, j, jEnd);
    }

    private void pass6(float[] c, int cRow, int ap, int r0, int jc, int jEnd) {
        FloatVector a0 = FloatVector.broadcast(S, a[ap]), a1 = FloatVector.broadcast(S, a[ap + 1]);
        FloatVector a2 = FloatVector.broadcast(S, a[ap + 2]), a3 = FloatVector.broadcast(S, a[ap + 3]);
        FloatVector a4 = FloatVector.broadcast(S, a[ap + 4]), a5 = FloatVector.broadcast(S, a[ap + 5]);
        int r1 = r0 + n, r2 = r1 + n, r3 = r2 + n, r4 = r3 + n, r5 = r4 + n;
        int j = jc;
        for (; j + L <= jEnd; j += L) {
            FloatVector x = Fma.madd(a0, FloatVector.fromArray(S, b, r0 + j), FloatVector.fromArray(S, c, cRow + j));
            FloatVector y = a3.mul(FloatVector.fromArray(S, b, r3 + j));
            x = Fma.madd(a1, FloatVector.fromArray(S, b, r1 + j), x);
            y = Fma.madd(a4, FloatVector.fromArray(S, b, r4 + j), y);
            x = Fma.madd(a2, FloatVector.fromArray(S, b, r2 + j), x);
            y = Fma.madd(a5, FloatVector.fromArray(S, b, r5 + j), y);
            x.add(y).intoArray(c, cRow + j);
        }
        tail(c, cRow, ap, r0, 6, j, jEnd);
    }

    private void pass8(float[] c, int cRow, int ap, int r0, int jc, int jEnd) {
        FloatVector a0 = FloatVector.broadcast(S, a[ap]), a1 = FloatVector.broadcast(S, a[ap + 1]);
        FloatVector a2 = FloatVector.broadcast(S, a[ap + 2]), a3 = FloatVector.broadcast(S, a[ap + 3]);
        FloatVector a4 = FloatVector.broadcast(S, a[ap + 4]), a5 = FloatVector.broadcast(S, a[ap + 5]);
        FloatVector a6 = FloatVector.broadcast(S, a[ap + 6]), a7 = FloatVector.broadcast(S, a[ap + 7]);
        int r1 = r0 + n, r2 = r1 + n, r3 = r2 + n, r4 = r3 + n, r5 = r4 + n, r6 = r5 + n, r7 = r6 + n;
        int j = jc;
        for (; j + L <= jEnd; j += L) {
            FloatVector x = Fma.madd(a0, FloatVector.fromArray(S, b, r0 + j), FloatVector.fromArray(S, c, cRow + j));
            FloatVector y = a4.mul(FloatVector.fromArray(S, b, r4 + j));
            x = Fma.madd(a1, FloatVector.fromArray(S, b, r1 + j), x);
            y = Fma.madd(a5, FloatVector.fromArray(S, b, r5 + j), y);
            x = Fma.madd(a2, FloatVector.fromArray(S, b, r2 + j), x);
            y = Fma.madd(a6, FloatVector.fromArray(S, b, r6 + j), y);
            x = Fma.madd(a3, FloatVector.fromArray(S, b, r3 + j), x);
            y = Fma.madd(a7, FloatVector.fromArray(S, b, r7 + j), y);
            x.add(y).intoArray(c, cRow + j);
        }
        tail(c, cRow, ap, r0, 8, j, jEnd);
    }

    /** The columns past the last whole vector, one at a time, for the pass's rows of B. */
    private void tail(float[] c, int cRow, int ap, int r0, int rows, int j, int jEnd) {
        for (; j < jEnd; j++) {
            float s = c[cRow + j];
            for (int q = 0; q < rows; q++) s += a[ap + q] * b[r0 + q * n + j];
            c[cRow + j] = s;
        }
    }
}
