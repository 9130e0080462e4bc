package org.tunefarm.agent.kernels.gemm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Packs full A panels ({@link MicroPanels#packA}: {@code rows} rows of A stored column by column)
 * with lane shuffles: one vector of K steps from each row, transposed in registers, written as
 * whole vectors. Element by element (one load and one store a float), packing A took 0.07-0.11 ms
 * of a 1.44 ms 512^3 GEMM at 8x2 on a Zen 5; shuffled, all of a 512 x 512 A packs in 0.019-0.026
 * ms at 512 bits (3, 4, 6 and 8 rows: 3.5-4.8x as fast), 1.3-2.1x as fast at 256 bits
 * ({@code -XX:UseAVX=2}) and 1.5-2x at 128, each width in JVMs of its own. The whole GEMM at
 * 512^3 and 1024^3 on one thread ran 0.98-1.23x as fast (median 1.03x) over 8x2, 6x3 and 6x4, 3x3
 * under AVX2 1.01-1.06x, 6x4 at 128 bits 0.99-1.02x (old and new code in alternating JVMs).
 *
 * <p>The transpose is a perfect shuffle: interleaving two vectors lane by lane ({@link #ZIP_LO},
 * {@link #ZIP_HI}) three times turns eight rows of L steps into eight vectors of steps, each all
 * eight rows' values of its steps in order; twice does it for four rows, once for two. Three rows
 * interleave three vectors at once ({@link #Z3_0} and the rest); six are pairs three rows apart,
 * zipped, then interleaved in threes. Every height works at every lane count.
 *
 * <p>The shuffles are written out in each method, with no helper taking or returning a vector: a
 * two-vector rearrange is many nodes, and C2 stopped inlining such helpers partway through the
 * eight-row transpose (NodeCountInliningCutoff), leaving the rest boxed and the packing 4x slower
 * than element by element. The Vector API's own methods are exempt from that cutoff.
 */
final class PanelTranspose {

    private static final VectorSpecies<Float> S = UnrolledMicroKernels.S;
    private static final int L = S.length();

    /** Lane i of x.rearrange(ZIP_LO, y) is lane i/2 of x (i even) or of y (i odd); ZIP_HI from lane L/2 on. */
    private static final VectorShuffle<Float> ZIP_LO = zip2(0), ZIP_HI = zip2(L / 2);
    /** For output o of three interleaved vectors: its lanes' source lanes, and which lanes come from the second and third. */
    private static final VectorShuffle<Float> Z3_0 = zip3(0), Z3_1 = zip3(1), Z3_2 = zip3(2);
    private static final VectorMask<Float> Z3_0_FROM_1 = from3(0, 1), Z3_0_FROM_2 = from3(0, 2),
            Z3_1_FROM_1 = from3(1, 1), Z3_1_FROM_2 = from3(1, 2), Z3_2_FROM_1 = from3(2, 1), Z3_2_FROM_2 = from3(2, 2);

    private PanelTranspose() {}

    /**
     * Packs {@code a[s + r * lda + p]} for r < rows, p < kc into {@code dst[at + p * rows + r]}:
     * whole vectors of steps by shuffles, the last kc % L steps one by one. Returns false, packing
     * nothing, for a height it has no shuffles for (2, 3, 4, 6 and 8 rows it has).
     */
    static boolean pack(float[] a, int s, int lda, int kc, int rows, float[] dst, int at) {
        int whole = kc - kc % L;
        switch (rows) {
            case 2 -> pack2(a, s, lda, whole, dst, at);
            case 3 -> pack3(a, s, lda, whole, dst, at);
            case 4 -> pack4(a, s, lda, whole, dst, at);
            case 6 -> pack6(a, s, lda, whole, dst, at);
            case 8 -> pack8(a, s, lda, whole, dst, at);
            default -> { return false; }
        }
        for (int p = whole; p < kc; p++) {
            for (int r = 0; r < rows; r++) dst[at + p * rows + r] = a[s + r * lda + p];
        }
        return true;
    }

    private static void pack2(float[] a, int s, int lda, int whole, float[] dst, int at) {
        for (int p = 0; p < whole; p += L) {
            FloatVector r0 = FloatVector.fromArray(S, a, s + p), r1 = FloatVector.fromArray(S, a, s + lda + p);
            int d = at + 2 * p;
            r0.rearrange(ZIP_LO, r1).intoArray(dst, d);
            r0.rearrange(ZIP_HI, r1).intoArray(dst, d + L);
        }
    }

    private static void pack4(float[] a, int s, int lda, int whole, float[] dst, int at) {
        for (int p = 0; p < whole; p += L) {
            int q = s + p;
            FloatVector r0 = FloatVector.fromArray(S, a, q), r1 = FloatVector.fromArray(S, a, q + lda), r2 = FloatVector.fromArray(S, a, q + 2 * lda), r3 = FloatVector.fromArray(S, a, q + 3 * lda);
            // rows two apart, then those pairs one apart: r0 r1 r2 r3 of each step in turn
            FloatVector e0 = r0.rearrange(ZIP_LO, r2), e1 = r0.rearrange(ZIP_HI, r2), o0 = r1.rearrange(ZIP_LO, r3), o1 = r1.rearrange(ZIP_HI, r3);
            int d = at + 4 * p;
            e0.rearrange(ZIP_LO, o0).intoArray(dst, d);
            e0.rearrange(ZIP_HI, o0).intoArray(dst, d + L);
            e1.rearrange(ZIP_LO, o1).intoArray(dst, d + 2 * L);
            e1.rearrange(ZIP_HI, o1).intoArray(dst, d + 3 * L);
        }
    }

    private static void pack8(float[] a, int s, int lda, int whole, float[] dst, int at) {
        for (int p = 0; p < whole; p += L) {
            int q = s + p;
            FloatVector r0 = FloatVector.fromArray(S, a, q), r1 = FloatVector.fromArray(S, a, q + lda), r2 = FloatVector.fromArray(S, a, q + 2 * lda), r3 = FloatVector.fromArray(S, a, q + 3 * lda),
                    r4 = FloatVector.fromArray(S, a, q + 4 * lda), r5 = FloatVector.fromArray(S, a, q + 5 * lda), r6 = FloatVector.fromArray(S, a, q + 6 * lda), r7 = FloatVector.fromArray(S, a, q + 7 * lda);
            // rows four apart, then two, then one
            FloatVector a0 = r0.rearrange(ZIP_LO, r4), a1 = r0.rearrange(ZIP_HI, r4), a2 = r1.rearrange(ZIP_LO, r5), a3 = r1.rearrange(ZIP_HI, r5),
                    a4 = r2.rearrange(ZIP_LO, r6), a5 = r2.rearrange(ZIP_HI, r6), a6 = r3.rearrange(ZIP_LO, r7), a7 = r3.rearrange(ZIP_HI, r7);
            FloatVector b0 = a0.rearrange(ZIP_LO, a4), b1 = a0.rearrange(ZIP_HI, a4), b2 = a1.rearrange(ZIP_LO, a5), b3 = a1.rearrange(ZIP_HI, a5),
                    b4 = a2.rearrange(ZIP_LO, a6), b5 = a2.rearrange(ZIP_HI, a6), b6 = a3.rearrange(ZIP_LO, a7), b7 = a3.rearrange(ZIP_HI, a7);
            int d = at + 8 * p;
            b0.rearrange(ZIP_LO, b4).intoArray(dst, d);
            b0.rearrange(ZIP_HI, b4).intoArray(dst, d + L);
            b1.rearrange(ZIP_LO, b5).intoArray(dst, d + 2 * L);
            b1.rearrange(ZIP_HI, b5).intoArray(dst, d + 3 * L);
            b2.rearrange(ZIP_LO, b6).intoArray(dst, d + 4 * L);
            b2.rearrange(ZIP_HI, b6).intoArray(dst, d + 5 * L);
            b3.rearrange(ZIP_LO, b7).intoArray(dst, d + 6 * L);
            b3.rearrange(ZIP_HI, b7).intoArray(dst, d + 7 * L);
        }
    }

    private static void pack3(float[] a, int s, int lda, int whole, float[] dst, int at) {
        for (int p = 0; p < whole; p += L) {
            int q = s + p, d = at + 3 * p;
            FloatVector x = FloatVector.fromArray(S, a, q), y = FloatVector.fromArray(S, a, q + lda), z = FloatVector.fromArray(S, a, q + 2 * lda);
            x.rearrange(Z3_0).blend(y.rearrange(Z3_0), Z3_0_FROM_1).blend(z.rearrange(Z3_0), Z3_0_FROM_2).intoArray(dst, d);
            x.rearrange(Z3_1).blend(y.rearrange(Z3_1), Z3_1_FROM_1).blend(z.rearrange(Z3_1), Z3_1_FROM_2).intoArray(dst, d + L);
            x.rearrange(Z3_2).blend(y.rearrange(Z3_2), Z3_2_FROM_1).blend(z.rearrange(Z3_2), Z3_2_FROM_2).intoArray(dst, d + 2 * L);
        }
    }

    private static void pack6(float[] a, int s, int lda, int whole, float[] dst, int at) {
        for (int p = 0; p < whole; p += L) {
            int q = s + p, d = at + 6 * p;
            FloatVector r0 = FloatVector.fromArray(S, a, q), r1 = FloatVector.fromArray(S, a, q + lda),
                    r2 = FloatVector.fromArray(S, a, q + 2 * lda), r3 = FloatVector.fromArray(S, a, q + 3 * lda),
                    r4 = FloatVector.fromArray(S, a, q + 4 * lda), r5 = FloatVector.fromArray(S, a, q + 5 * lda);
            // rows three apart, zipped (r0 r3, r1 r4, r2 r5 of each step), then those three interleaved
            FloatVector x = r0.rearrange(ZIP_LO, r3), y = r1.rearrange(ZIP_LO, r4), z = r2.rearrange(ZIP_LO, r5);
            x.rearrange(Z3_0).blend(y.rearrange(Z3_0), Z3_0_FROM_1).blend(z.rearrange(Z3_0), Z3_0_FROM_2).intoArray(dst, d);
            x.rearrange(Z3_1).blend(y.rearrange(Z3_1), Z3_1_FROM_1).blend(z.rearrange(Z3_1), Z3_1_FROM_2).intoArray(dst, d + L);
            x.rearrange(Z3_2).blend(y.rearrange(Z3_2), Z3_2_FROM_1).blend(z.rearrange(Z3_2), Z3_2_FROM_2).intoArray(dst, d + 2 * L);
            x = r0.rearrange(ZIP_HI, r3);
            y = r1.rearrange(ZIP_HI, r4);
            z = r2.rearrange(ZIP_HI, r5);
            x.rearrange(Z3_0).blend(y.rearrange(Z3_0), Z3_0_FROM_1).blend(z.rearrange(Z3_0), Z3_0_FROM_2).intoArray(dst, d + 3 * L);
            x.rearrange(Z3_1).blend(y.rearrange(Z3_1), Z3_1_FROM_1).blend(z.rearrange(Z3_1), Z3_1_FROM_2).intoArray(dst, d + 4 * L);
            x.rearrange(Z3_2).blend(y.rearrange(Z3_2), Z3_2_FROM_1).blend(z.rearrange(Z3_2), Z3_2_FROM_2).intoArray(dst, d + 5 * L);
        }
    }

    /** Lanes from {@code half}: i/2 of the first vector at even i, of the second (L + i/2, exceptional) at odd. */
    private static VectorShuffle<Float> zip2(int half) {
        int[] source = new int[L];
        for (int i = 0; i < L; i++) source[i] = (i % 2 == 0 ? 0 : L) + half + i / 2;
        return VectorShuffle.fromArray(S, source, 0);
    }

    /** Output {@code o} of three interleaved vectors: its lane i is lane (o L + i) / 3 of vector (o L + i) % 3. */
    private static VectorShuffle<Float> zip3(int o) {
        int[] source = new int[L];
        for (int i = 0; i < L; i++) source[i] = (o * L + i) / 3;
        return VectorShuffle.fromArray(S, source, 0);
    }

    private static VectorMask<Float> from3(int o, int vector) {
        boolean[] from = new boolean[L];
        for (int i = 0; i < L; i++) from[i] = (o * L + i) % 3 == vector;
        return VectorMask.fromArray(S, from, 0);
    }
}
