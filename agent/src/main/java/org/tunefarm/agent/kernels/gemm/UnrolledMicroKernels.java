package org.tunefarm.agent.kernels.gemm;

import static org.tunefarm.agent.kernels.gemm.Fma.madd;

import java.util.Map;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import org.tunefarm.agent.kernels.VectorWidth;

/**
 * Register-blocked micro-kernels written out for the micro-tiles of up to 12 accumulators (of
 * them, AVX2's 16 registers hold 3x3, 3x2, 3x1, 4x2, 4x1 and 6x1 with their broadcasts; 4x3, 6x2 and 8x1
 * run where there are 32, GemmSpec's register rule): each holds its rows x vecs tile of C in
 * named locals, so C2 keeps them in registers
 * across the K loop, where an array of accumulators would live in memory. The element (r, p) of
 * A is {@code a[ai + r * aRs + p * aCs]}, row p of B starts at {@code b[bi + p * bRs]}, so packed
 * panels and A or B read in place run through the same code. All the kernels here and in
 * {@link WideMicroKernels} follow one pattern: change them together.
 */
final class UnrolledMicroKernels {

    /** The species of {@link VectorWidth}; every kernel adapts to its lane count. */
    static final VectorSpecies<Float> S = VectorWidth.floats();
    private static final int L = S.length();

    /** The kernels by {@link MicroKernel#tileKey}. */
    static final Map<Integer, MicroKernel> BY_TILE = Map.ofEntries(
            Map.entry(MicroKernel.tileKey(3, 1), UnrolledMicroKernels::k3x1),
            Map.entry(MicroKernel.tileKey(3, 2), UnrolledMicroKernels::k3x2),
            Map.entry(MicroKernel.tileKey(3, 3), UnrolledMicroKernels::k3x3),
            Map.entry(MicroKernel.tileKey(4, 1), UnrolledMicroKernels::k4x1),
            Map.entry(MicroKernel.tileKey(4, 2), UnrolledMicroKernels::k4x2),
            Map.entry(MicroKernel.tileKey(4, 3), UnrolledMicroKernels::k4x3),
            Map.entry(MicroKernel.tileKey(6, 1), UnrolledMicroKernels::k6x1),
            Map.entry(MicroKernel.tileKey(6, 2), UnrolledMicroKernels::k6x2),
            Map.entry(MicroKernel.tileKey(8, 1), UnrolledMicroKernels::k8x1));

    private UnrolledMicroKernels() {}

    /**
     * 3x3, AVX2's tile: 9 accumulators, 3 B vectors and the 3 broadcasts C2 hoists fill 15 of 16
     * registers with no spill. Packed and strided walks in two methods, as {@link #k6x2}.
     */
    static void k3x3(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                     float[] c, int ci, int ldc, boolean accumulate) {
        if (aRs == 1 && aCs == 3 && bRs == 3 * L) k3x3Packed(kc, a, ai, b, bi, c, ci, ldc, accumulate);
        else k3x3Strided(kc, a, ai, aRs, aCs, b, bi, bRs, c, ci, ldc, accumulate);
    }

    private static void k3x3Packed(int kc, float[] a, int ai, float[] b, int bi, float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S), c02 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S), c12 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S), c22 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++) {
            int ao = ai + p * 3, bo = bi + p * (3 * L);
            FloatVector b0 = FloatVector.fromArray(S, b, bo);
            FloatVector b1 = FloatVector.fromArray(S, b, bo + L);
            FloatVector b2 = FloatVector.fromArray(S, b, bo + 2 * L);
            FloatVector a0 = FloatVector.broadcast(S, a[ao]);
            c00 = madd(a0, b0, c00); c01 = madd(a0, b1, c01); c02 = madd(a0, b2, c02);
            FloatVector a1 = FloatVector.broadcast(S, a[ao + 1]);
            c10 = madd(a1, b0, c10); c11 = madd(a1, b1, c11); c12 = madd(a1, b2, c12);
            FloatVector a2 = FloatVector.broadcast(S, a[ao + 2]);
            c20 = madd(a2, b0, c20); c21 = madd(a2, b1, c21); c22 = madd(a2, b2, c22);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate); store(c02, c, ci + 2 * L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate); store(c12, c, ci + ldc + 2 * L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate); store(c22, c, ci + 2 * ldc + 2 * L, accumulate);
    }

    private static void k3x3Strided(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                                    float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S), c02 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S), c12 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S), c22 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            FloatVector b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector b2 = FloatVector.fromArray(S, b, bi + 2 * L);
            FloatVector a0 = FloatVector.broadcast(S, a[ai]);
            c00 = madd(a0, b0, c00); c01 = madd(a0, b1, c01); c02 = madd(a0, b2, c02);
            FloatVector a1 = FloatVector.broadcast(S, a[ai + aRs]);
            c10 = madd(a1, b0, c10); c11 = madd(a1, b1, c11); c12 = madd(a1, b2, c12);
            FloatVector a2 = FloatVector.broadcast(S, a[ai + 2 * aRs]);
            c20 = madd(a2, b0, c20); c21 = madd(a2, b1, c21); c22 = madd(a2, b2, c22);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate); store(c02, c, ci + 2 * L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate); store(c12, c, ci + ldc + 2 * L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate); store(c22, c, ci + 2 * ldc + 2 * L, accumulate);
    }

    /** 3x1 and 3x2: 3x3's ragged right edge (24 columns of AVX2 over an N that 24 does not divide), and tiles of their own. */
    static void k3x1(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                     float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c10 = FloatVector.zero(S), c20 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            c00 = madd(FloatVector.broadcast(S, a[ai]), b0, c00);
            c10 = madd(FloatVector.broadcast(S, a[ai + aRs]), b0, c10);
            c20 = madd(FloatVector.broadcast(S, a[ai + 2 * aRs]), b0, c20);
        }
        store(c00, c, ci, accumulate);
        store(c10, c, ci + ldc, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate);
    }

    static void k3x2(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                     float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            FloatVector b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector a0 = FloatVector.broadcast(S, a[ai]);
            c00 = madd(a0, b0, c00); c01 = madd(a0, b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, a[ai + aRs]);
            c10 = madd(a1, b0, c10); c11 = madd(a1, b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, a[ai + 2 * aRs]);
            c20 = madd(a2, b0, c20); c21 = madd(a2, b1, c21);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate);
    }

    static void k4x1(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                      float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            FloatVector a0 = FloatVector.broadcast(S, a[ai]);
            c00 = madd(a0, b0, c00);
            FloatVector a1 = FloatVector.broadcast(S, a[ai + aRs]);
            c10 = madd(a1, b0, c10);
            FloatVector a2 = FloatVector.broadcast(S, a[ai + 2 * aRs]);
            c20 = madd(a2, b0, c20);
            FloatVector a3 = FloatVector.broadcast(S, a[ai + 3 * aRs]);
            c30 = madd(a3, b0, c30);
        }
        store(c00, c, ci, accumulate);
        store(c10, c, ci + ldc, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate);
    }

    static void k4x2(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                      float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            FloatVector b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector a0 = FloatVector.broadcast(S, a[ai]);
            c00 = madd(a0, b0, c00); c01 = madd(a0, b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, a[ai + aRs]);
            c10 = madd(a1, b0, c10); c11 = madd(a1, b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, a[ai + 2 * aRs]);
            c20 = madd(a2, b0, c20); c21 = madd(a2, b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, a[ai + 3 * aRs]);
            c30 = madd(a3, b0, c30); c31 = madd(a3, b1, c31);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate); store(c31, c, ci + 3 * ldc + L, accumulate);
    }

    static void k4x3(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                      float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S), c02 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S), c12 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S), c22 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S), c32 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            FloatVector b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector b2 = FloatVector.fromArray(S, b, bi + 2 * L);
            FloatVector a0 = FloatVector.broadcast(S, a[ai]);
            c00 = madd(a0, b0, c00); c01 = madd(a0, b1, c01); c02 = madd(a0, b2, c02);
            FloatVector a1 = FloatVector.broadcast(S, a[ai + aRs]);
            c10 = madd(a1, b0, c10); c11 = madd(a1, b1, c11); c12 = madd(a1, b2, c12);
            FloatVector a2 = FloatVector.broadcast(S, a[ai + 2 * aRs]);
            c20 = madd(a2, b0, c20); c21 = madd(a2, b1, c21); c22 = madd(a2, b2, c22);
            FloatVector a3 = FloatVector.broadcast(S, a[ai + 3 * aRs]);
            c30 = madd(a3, b0, c30); c31 = madd(a3, b1, c31); c32 = madd(a3, b2, c32);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate); store(c02, c, ci + 2 * L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate); store(c12, c, ci + ldc + 2 * L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate); store(c22, c, ci + 2 * ldc + 2 * L, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate); store(c31, c, ci + 3 * ldc + L, accumulate); store(c32, c, ci + 3 * ldc + 2 * L, accumulate);
    }

    static void k6x1(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                      float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            FloatVector a0 = FloatVector.broadcast(S, a[ai]);
            c00 = madd(a0, b0, c00);
            FloatVector a1 = FloatVector.broadcast(S, a[ai + aRs]);
            c10 = madd(a1, b0, c10);
            FloatVector a2 = FloatVector.broadcast(S, a[ai + 2 * aRs]);
            c20 = madd(a2, b0, c20);
            FloatVector a3 = FloatVector.broadcast(S, a[ai + 3 * aRs]);
            c30 = madd(a3, b0, c30);
            FloatVector a4 = FloatVector.broadcast(S, a[ai + 4 * aRs]);
            c40 = madd(a4, b0, c40);
            FloatVector a5 = FloatVector.broadcast(S, a[ai + 5 * aRs]);
            c50 = madd(a5, b0, c50);
        }
        store(c00, c, ci, accumulate);
        store(c10, c, ci + ldc, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate);
        store(c40, c, ci + 4 * ldc, accumulate);
        store(c50, c, ci + 5 * ldc, accumulate);
    }

    /**
     * 6x2 in two methods: both panels packed (offsets from p with constant strides, so C2 drops
     * the range checks it cannot hoist from the strided walk; GemmProbe, 512^3, one thread, Zen 4:
     * at 128 bits 23-41 -> 48-51 GFLOP/s, at 512 no change), else the strided walk. Two loops in
     * one method made C2 compile whichever ran first and trap on the other: a JVM that ran both
     * (a packed GEMM, then a direct convolution) ran them 1.5x to 10x slower than one that ran one.
     */
    static void k6x2(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                      float[] c, int ci, int ldc, boolean accumulate) {
        if (aRs == 1 && aCs == 6 && bRs == 2 * L) k6x2Packed(kc, a, ai, b, bi, c, ci, ldc, accumulate);
        else k6x2Strided(kc, a, ai, aRs, aCs, b, bi, bRs, c, ci, ldc, accumulate);
    }

    private static void k6x2Packed(int kc, float[] a, int ai, float[] b, int bi, float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S), c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S), c51 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++) {
            int ao = ai + p * 6, bo = bi + p * (2 * L);
            FloatVector b0 = FloatVector.fromArray(S, b, bo);
            FloatVector b1 = FloatVector.fromArray(S, b, bo + L);
            FloatVector a0 = FloatVector.broadcast(S, a[ao]);
            c00 = madd(a0, b0, c00); c01 = madd(a0, b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, a[ao + 1]);
            c10 = madd(a1, b0, c10); c11 = madd(a1, b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, a[ao + 2]);
            c20 = madd(a2, b0, c20); c21 = madd(a2, b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, a[ao + 3]);
            c30 = madd(a3, b0, c30); c31 = madd(a3, b1, c31);
            FloatVector a4 = FloatVector.broadcast(S, a[ao + 4]);
            c40 = madd(a4, b0, c40); c41 = madd(a4, b1, c41);
            FloatVector a5 = FloatVector.broadcast(S, a[ao + 5]);
            c50 = madd(a5, b0, c50); c51 = madd(a5, b1, c51);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate); store(c31, c, ci + 3 * ldc + L, accumulate);
        store(c40, c, ci + 4 * ldc, accumulate); store(c41, c, ci + 4 * ldc + L, accumulate);
        store(c50, c, ci + 5 * ldc, accumulate); store(c51, c, ci + 5 * ldc + L, accumulate);
    }

    private static void k6x2Strided(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                                    float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S), c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S), c51 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            FloatVector b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector a0 = FloatVector.broadcast(S, a[ai]);
            c00 = madd(a0, b0, c00); c01 = madd(a0, b1, c01);
            FloatVector a1 = FloatVector.broadcast(S, a[ai + aRs]);
            c10 = madd(a1, b0, c10); c11 = madd(a1, b1, c11);
            FloatVector a2 = FloatVector.broadcast(S, a[ai + 2 * aRs]);
            c20 = madd(a2, b0, c20); c21 = madd(a2, b1, c21);
            FloatVector a3 = FloatVector.broadcast(S, a[ai + 3 * aRs]);
            c30 = madd(a3, b0, c30); c31 = madd(a3, b1, c31);
            FloatVector a4 = FloatVector.broadcast(S, a[ai + 4 * aRs]);
            c40 = madd(a4, b0, c40); c41 = madd(a4, b1, c41);
            FloatVector a5 = FloatVector.broadcast(S, a[ai + 5 * aRs]);
            c50 = madd(a5, b0, c50); c51 = madd(a5, b1, c51);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate); store(c31, c, ci + 3 * ldc + L, accumulate);
        store(c40, c, ci + 4 * ldc, accumulate); store(c41, c, ci + 4 * ldc + L, accumulate);
        store(c50, c, ci + 5 * ldc, accumulate); store(c51, c, ci + 5 * ldc + L, accumulate);
    }

    static void k8x1(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                      float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S);
        FloatVector c60 = FloatVector.zero(S);
        FloatVector c70 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            FloatVector a0 = FloatVector.broadcast(S, a[ai]);
            c00 = madd(a0, b0, c00);
            FloatVector a1 = FloatVector.broadcast(S, a[ai + aRs]);
            c10 = madd(a1, b0, c10);
            FloatVector a2 = FloatVector.broadcast(S, a[ai + 2 * aRs]);
            c20 = madd(a2, b0, c20);
            FloatVector a3 = FloatVector.broadcast(S, a[ai + 3 * aRs]);
            c30 = madd(a3, b0, c30);
            FloatVector a4 = FloatVector.broadcast(S, a[ai + 4 * aRs]);
            c40 = madd(a4, b0, c40);
            FloatVector a5 = FloatVector.broadcast(S, a[ai + 5 * aRs]);
            c50 = madd(a5, b0, c50);
            FloatVector a6 = FloatVector.broadcast(S, a[ai + 6 * aRs]);
            c60 = madd(a6, b0, c60);
            FloatVector a7 = FloatVector.broadcast(S, a[ai + 7 * aRs]);
            c70 = madd(a7, b0, c70);
        }
        store(c00, c, ci, accumulate);
        store(c10, c, ci + ldc, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate);
        store(c40, c, ci + 4 * ldc, accumulate);
        store(c50, c, ci + 5 * ldc, accumulate);
        store(c60, c, ci + 6 * ldc, accumulate);
        store(c70, c, ci + 7 * ldc, accumulate);
    }

    private static void store(FloatVector acc, float[] c, int at, boolean accumulate) {
        (accumulate ? acc.add(FloatVector.fromArray(S, c, at)) : acc).intoArray(c, at);
    }
}
