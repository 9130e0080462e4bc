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
 * (2, 4, 6 or 8). A pass loads each C vector once, adds that many A x B products, and stores it
 * once, so C's loads and stores cost a fraction of a B row each and several B streams are in
 * flight: one row per pass read barely 0.45x of the machine's read bandwidth on Zen 4, eight rows
 * about 0.9x (against a roofline of one running sum, which understated it). The passes of 2 and 6
 * rows read their rows in step and hold their A broadcasts, at most two accumulators and a B vector
 * in registers, within AVX2's 16; the passes of 4 and 8 skew their rows ({@link #pass8}) and carry
 * three and seven partial sums instead (the 8-row pass spills on AVX2, at no measured cost). The
 * passes are written out per size, like the micro-kernels, so that C2 keeps the broadcasts in
 * registers (an array of them would live in memory).
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

    /** Four rows, skewed as {@link #pass8}: three partial sums carried. */
    private void pass4(float[] c, int cRow, int ap, int r0, int jc, int jEnd) {
        int vEnd = jc + (jEnd - jc) / L * L;
        if (vEnd - jc < 4 * L) {
            columns(c, cRow, ap, r0, 4, jc, vEnd, jEnd);
            return;
        }
        FloatVector a0 = FloatVector.broadcast(S, a[ap]), a1 = FloatVector.broadcast(S, a[ap + 1]);
        FloatVector a2 = FloatVector.broadcast(S, a[ap + 2]), a3 = FloatVector.broadcast(S, a[ap + 3]);
        int r1 = r0 + n, r2 = r1 + n, r3 = r2 + n;
        int t = jc + 3 * L;
        for (int q = 1; q < 4; q++) addRows(c, cRow, ap, r0, t - q * L, 0, q);
        FloatVector v1 = FloatVector.fromArray(S, c, cRow + t - L), v2 = FloatVector.fromArray(S, c, cRow + t - 2 * L);
        FloatVector v3 = FloatVector.fromArray(S, c, cRow + t - 3 * L);
        for (; t < vEnd; t += L) {
            Fma.madd(a3, FloatVector.fromArray(S, b, r3 + t - 3 * L), v3).intoArray(c, cRow + t - 3 * L);
            v3 = Fma.madd(a2, FloatVector.fromArray(S, b, r2 + t - 2 * L), v2);
            v2 = Fma.madd(a1, FloatVector.fromArray(S, b, r1 + t - L), v1);
            v1 = Fma.madd(a0, FloatVector.fromArray(S, b, r0 + t), FloatVector.fromArray(S, c, cRow + t));
        }
        v1.intoArray(c, cRow + t - L);
        v2.intoArray(c, cRow + t - 2 * L);
        v3.intoArray(c, cRow + t - 3 * L);
        for (int q = 1; q < 4; q++) addRows(c, cRow, ap, r0, t - q * L, q, 4);
        tail(c, cRow, ap, r0, 4, vEnd, jEnd);
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

    /**
     * Eight rows, skewed: row q of the pass reads the vector q places behind row 0's, so the eight
     * streams, a row of B apart (a power of two bytes for the usual N), differ in their low address
     * bits. Read in step, all eight address the same cache sets and DRAM banks at once: on a Zen 5 at
     * N = 4096 the skewed pass ran 1.12-1.20x as fast, and the same as unskewed with AVX2's 16
     * registers (the skewed 4-row pass 1.3-1.5x its unskewed self on both; skewed 6-row passes ran
     * slower than unskewed, 2-row ones gained nothing, so those two stay in step). Each C vector is
     * loaded when row 0 reaches it, carries its partial sum through seven registers (one step per
     * row) and is stored when row 7 has added to it.
     */
    private void pass8(float[] c, int cRow, int ap, int r0, int jc, int jEnd) {
        int vEnd = jc + (jEnd - jc) / L * L;
        if (vEnd - jc < 8 * L) {
            columns(c, cRow, ap, r0, 8, jc, vEnd, jEnd);
            return;
        }
        FloatVector a0 = FloatVector.broadcast(S, a[ap]), a1 = FloatVector.broadcast(S, a[ap + 1]);
        FloatVector a2 = FloatVector.broadcast(S, a[ap + 2]), a3 = FloatVector.broadcast(S, a[ap + 3]);
        FloatVector a4 = FloatVector.broadcast(S, a[ap + 4]), a5 = FloatVector.broadcast(S, a[ap + 5]);
        FloatVector a6 = FloatVector.broadcast(S, a[ap + 6]), a7 = FloatVector.broadcast(S, a[ap + 7]);
        int r1 = r0 + n, r2 = r1 + n, r3 = r2 + n, r4 = r3 + n, r5 = r4 + n, r6 = r5 + n, r7 = r6 + n;
        // Before the first step: v_q holds the C vector q places behind row 0's with rows 0..q-1 added.
        // The partial sums go through C, not through a helper's return value: a vector returned by a
        // call C2 does not inline is boxed, and with the sums returned by a helper the pass ran at a
        // third of its speed once other points had run in the JVM.
        int t = jc + 7 * L;
        for (int q = 1; q < 8; q++) addRows(c, cRow, ap, r0, t - q * L, 0, q);
        FloatVector v1 = FloatVector.fromArray(S, c, cRow + t - L), v2 = FloatVector.fromArray(S, c, cRow + t - 2 * L);
        FloatVector v3 = FloatVector.fromArray(S, c, cRow + t - 3 * L), v4 = FloatVector.fromArray(S, c, cRow + t - 4 * L);
        FloatVector v5 = FloatVector.fromArray(S, c, cRow + t - 5 * L), v6 = FloatVector.fromArray(S, c, cRow + t - 6 * L);
        FloatVector v7 = FloatVector.fromArray(S, c, cRow + t - 7 * L);
        for (; t < vEnd; t += L) {
            Fma.madd(a7, FloatVector.fromArray(S, b, r7 + t - 7 * L), v7).intoArray(c, cRow + t - 7 * L);
            v7 = Fma.madd(a6, FloatVector.fromArray(S, b, r6 + t - 6 * L), v6);
            v6 = Fma.madd(a5, FloatVector.fromArray(S, b, r5 + t - 5 * L), v5);
            v5 = Fma.madd(a4, FloatVector.fromArray(S, b, r4 + t - 4 * L), v4);
            v4 = Fma.madd(a3, FloatVector.fromArray(S, b, r3 + t - 3 * L), v3);
            v3 = Fma.madd(a2, FloatVector.fromArray(S, b, r2 + t - 2 * L), v2);
            v2 = Fma.madd(a1, FloatVector.fromArray(S, b, r1 + t - L), v1);
            v1 = Fma.madd(a0, FloatVector.fromArray(S, b, r0 + t), FloatVector.fromArray(S, c, cRow + t));
        }
        // After the last step: the last seven vectors still lack rows q..7.
        v1.intoArray(c, cRow + t - L);
        v2.intoArray(c, cRow + t - 2 * L);
        v3.intoArray(c, cRow + t - 3 * L);
        v4.intoArray(c, cRow + t - 4 * L);
        v5.intoArray(c, cRow + t - 5 * L);
        v6.intoArray(c, cRow + t - 6 * L);
        v7.intoArray(c, cRow + t - 7 * L);
        for (int q = 1; q < 8; q++) addRows(c, cRow, ap, r0, t - q * L, q, 8);
        tail(c, cRow, ap, r0, 8, vEnd, jEnd);
    }

    /** A block too narrow to skew over: each vector of C takes the pass's rows in turn, then the tail. */
    private void columns(float[] c, int cRow, int ap, int r0, int passRows, int jc, int vEnd, int jEnd) {
        for (int col = jc; col < vEnd; col += L) addRows(c, cRow, ap, r0, col, 0, passRows);
        tail(c, cRow, ap, r0, passRows, vEnd, jEnd);
    }

    /** Adds the pass's rows [from, to) of B at column {@code col} to C's vector there, in row order. */
    private void addRows(float[] c, int cRow, int ap, int r0, int col, int from, int to) {
        FloatVector acc = FloatVector.fromArray(S, c, cRow + col);
        for (int q = from; q < to; q++) acc = Fma.madd(FloatVector.broadcast(S, a[ap + q]), FloatVector.fromArray(S, b, r0 + q * n + col), acc);
        acc.intoArray(c, cRow + col);
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
