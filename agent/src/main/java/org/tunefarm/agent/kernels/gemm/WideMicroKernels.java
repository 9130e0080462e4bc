package org.tunefarm.agent.kernels.gemm;

import static org.tunefarm.agent.kernels.gemm.Fma.madd;

import java.util.Map;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Micro-kernels whose 16 to 24 accumulators need the 32 vector registers of AVX-512, NEON or
 * SVE; an AVX2 device's space does not offer them (GemmSpec.forDevice). Same pattern and operand
 * layout as {@link UnrolledMicroKernels}.
 */
final class WideMicroKernels {

    private static final VectorSpecies<Float> S = UnrolledMicroKernels.S;
    private static final int L = S.length();

    /** The kernels by {@link MicroKernel#tileKey}. */
    static final Map<Integer, MicroKernel> BY_TILE = Map.ofEntries(
            Map.entry(MicroKernel.tileKey(4, 4), WideMicroKernels::k4x4),
            Map.entry(MicroKernel.tileKey(6, 3), WideMicroKernels::k6x3),
            Map.entry(MicroKernel.tileKey(6, 4), WideMicroKernels::k6x4),
            Map.entry(MicroKernel.tileKey(8, 2), WideMicroKernels::k8x2),
            Map.entry(MicroKernel.tileKey(8, 3), WideMicroKernels::k8x3));

    private WideMicroKernels() {}

    static void k4x4(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                      float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S), c02 = FloatVector.zero(S), c03 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S), c12 = FloatVector.zero(S), c13 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S), c22 = FloatVector.zero(S), c23 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S), c32 = FloatVector.zero(S), c33 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            FloatVector b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector b2 = FloatVector.fromArray(S, b, bi + 2 * L);
            FloatVector b3 = FloatVector.fromArray(S, b, bi + 3 * L);
            FloatVector a0 = FloatVector.broadcast(S, a[ai]);
            c00 = madd(a0, b0, c00); c01 = madd(a0, b1, c01); c02 = madd(a0, b2, c02); c03 = madd(a0, b3, c03);
            FloatVector a1 = FloatVector.broadcast(S, a[ai + aRs]);
            c10 = madd(a1, b0, c10); c11 = madd(a1, b1, c11); c12 = madd(a1, b2, c12); c13 = madd(a1, b3, c13);
            FloatVector a2 = FloatVector.broadcast(S, a[ai + 2 * aRs]);
            c20 = madd(a2, b0, c20); c21 = madd(a2, b1, c21); c22 = madd(a2, b2, c22); c23 = madd(a2, b3, c23);
            FloatVector a3 = FloatVector.broadcast(S, a[ai + 3 * aRs]);
            c30 = madd(a3, b0, c30); c31 = madd(a3, b1, c31); c32 = madd(a3, b2, c32); c33 = madd(a3, b3, c33);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate); store(c02, c, ci + 2 * L, accumulate); store(c03, c, ci + 3 * L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate); store(c12, c, ci + ldc + 2 * L, accumulate); store(c13, c, ci + ldc + 3 * L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate); store(c22, c, ci + 2 * ldc + 2 * L, accumulate); store(c23, c, ci + 2 * ldc + 3 * L, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate); store(c31, c, ci + 3 * ldc + L, accumulate); store(c32, c, ci + 3 * ldc + 2 * L, accumulate); store(c33, c, ci + 3 * ldc + 3 * L, accumulate);
    }

    static void k6x3(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                      float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S), c02 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S), c12 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S), c22 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S), c32 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S), c41 = FloatVector.zero(S), c42 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S), c51 = FloatVector.zero(S), c52 = FloatVector.zero(S);
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
            FloatVector a4 = FloatVector.broadcast(S, a[ai + 4 * aRs]);
            c40 = madd(a4, b0, c40); c41 = madd(a4, b1, c41); c42 = madd(a4, b2, c42);
            FloatVector a5 = FloatVector.broadcast(S, a[ai + 5 * aRs]);
            c50 = madd(a5, b0, c50); c51 = madd(a5, b1, c51); c52 = madd(a5, b2, c52);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate); store(c02, c, ci + 2 * L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate); store(c12, c, ci + ldc + 2 * L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate); store(c22, c, ci + 2 * ldc + 2 * L, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate); store(c31, c, ci + 3 * ldc + L, accumulate); store(c32, c, ci + 3 * ldc + 2 * L, accumulate);
        store(c40, c, ci + 4 * ldc, accumulate); store(c41, c, ci + 4 * ldc + L, accumulate); store(c42, c, ci + 4 * ldc + 2 * L, accumulate);
        store(c50, c, ci + 5 * ldc, accumulate); store(c51, c, ci + 5 * ldc + L, accumulate); store(c52, c, ci + 5 * ldc + 2 * L, accumulate);
    }

    static void k6x4(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                      float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S), c02 = FloatVector.zero(S), c03 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S), c12 = FloatVector.zero(S), c13 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S), c22 = FloatVector.zero(S), c23 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S), c32 = FloatVector.zero(S), c33 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S), c41 = FloatVector.zero(S), c42 = FloatVector.zero(S), c43 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S), c51 = FloatVector.zero(S), c52 = FloatVector.zero(S), c53 = FloatVector.zero(S);
        for (int p = 0; p < kc; p++, ai += aCs, bi += bRs) {
            FloatVector b0 = FloatVector.fromArray(S, b, bi);
            FloatVector b1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector b2 = FloatVector.fromArray(S, b, bi + 2 * L);
            FloatVector b3 = FloatVector.fromArray(S, b, bi + 3 * L);
            FloatVector a0 = FloatVector.broadcast(S, a[ai]);
            c00 = madd(a0, b0, c00); c01 = madd(a0, b1, c01); c02 = madd(a0, b2, c02); c03 = madd(a0, b3, c03);
            FloatVector a1 = FloatVector.broadcast(S, a[ai + aRs]);
            c10 = madd(a1, b0, c10); c11 = madd(a1, b1, c11); c12 = madd(a1, b2, c12); c13 = madd(a1, b3, c13);
            FloatVector a2 = FloatVector.broadcast(S, a[ai + 2 * aRs]);
            c20 = madd(a2, b0, c20); c21 = madd(a2, b1, c21); c22 = madd(a2, b2, c22); c23 = madd(a2, b3, c23);
            FloatVector a3 = FloatVector.broadcast(S, a[ai + 3 * aRs]);
            c30 = madd(a3, b0, c30); c31 = madd(a3, b1, c31); c32 = madd(a3, b2, c32); c33 = madd(a3, b3, c33);
            FloatVector a4 = FloatVector.broadcast(S, a[ai + 4 * aRs]);
            c40 = madd(a4, b0, c40); c41 = madd(a4, b1, c41); c42 = madd(a4, b2, c42); c43 = madd(a4, b3, c43);
            FloatVector a5 = FloatVector.broadcast(S, a[ai + 5 * aRs]);
            c50 = madd(a5, b0, c50); c51 = madd(a5, b1, c51); c52 = madd(a5, b2, c52); c53 = madd(a5, b3, c53);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate); store(c02, c, ci + 2 * L, accumulate); store(c03, c, ci + 3 * L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate); store(c12, c, ci + ldc + 2 * L, accumulate); store(c13, c, ci + ldc + 3 * L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate); store(c22, c, ci + 2 * ldc + 2 * L, accumulate); store(c23, c, ci + 2 * ldc + 3 * L, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate); store(c31, c, ci + 3 * ldc + L, accumulate); store(c32, c, ci + 3 * ldc + 2 * L, accumulate); store(c33, c, ci + 3 * ldc + 3 * L, accumulate);
        store(c40, c, ci + 4 * ldc, accumulate); store(c41, c, ci + 4 * ldc + L, accumulate); store(c42, c, ci + 4 * ldc + 2 * L, accumulate); store(c43, c, ci + 4 * ldc + 3 * L, accumulate);
        store(c50, c, ci + 5 * ldc, accumulate); store(c51, c, ci + 5 * ldc + L, accumulate); store(c52, c, ci + 5 * ldc + 2 * L, accumulate); store(c53, c, ci + 5 * ldc + 3 * L, accumulate);
    }

    static void k8x2(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                      float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S), c41 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S), c51 = FloatVector.zero(S);
        FloatVector c60 = FloatVector.zero(S), c61 = FloatVector.zero(S);
        FloatVector c70 = FloatVector.zero(S), c71 = FloatVector.zero(S);
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
            FloatVector a6 = FloatVector.broadcast(S, a[ai + 6 * aRs]);
            c60 = madd(a6, b0, c60); c61 = madd(a6, b1, c61);
            FloatVector a7 = FloatVector.broadcast(S, a[ai + 7 * aRs]);
            c70 = madd(a7, b0, c70); c71 = madd(a7, b1, c71);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate); store(c31, c, ci + 3 * ldc + L, accumulate);
        store(c40, c, ci + 4 * ldc, accumulate); store(c41, c, ci + 4 * ldc + L, accumulate);
        store(c50, c, ci + 5 * ldc, accumulate); store(c51, c, ci + 5 * ldc + L, accumulate);
        store(c60, c, ci + 6 * ldc, accumulate); store(c61, c, ci + 6 * ldc + L, accumulate);
        store(c70, c, ci + 7 * ldc, accumulate); store(c71, c, ci + 7 * ldc + L, accumulate);
    }

    static void k8x3(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                      float[] c, int ci, int ldc, boolean accumulate) {
        FloatVector c00 = FloatVector.zero(S), c01 = FloatVector.zero(S), c02 = FloatVector.zero(S);
        FloatVector c10 = FloatVector.zero(S), c11 = FloatVector.zero(S), c12 = FloatVector.zero(S);
        FloatVector c20 = FloatVector.zero(S), c21 = FloatVector.zero(S), c22 = FloatVector.zero(S);
        FloatVector c30 = FloatVector.zero(S), c31 = FloatVector.zero(S), c32 = FloatVector.zero(S);
        FloatVector c40 = FloatVector.zero(S), c41 = FloatVector.zero(S), c42 = FloatVector.zero(S);
        FloatVector c50 = FloatVector.zero(S), c51 = FloatVector.zero(S), c52 = FloatVector.zero(S);
        FloatVector c60 = FloatVector.zero(S), c61 = FloatVector.zero(S), c62 = FloatVector.zero(S);
        FloatVector c70 = FloatVector.zero(S), c71 = FloatVector.zero(S), c72 = FloatVector.zero(S);
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
            FloatVector a4 = FloatVector.broadcast(S, a[ai + 4 * aRs]);
            c40 = madd(a4, b0, c40); c41 = madd(a4, b1, c41); c42 = madd(a4, b2, c42);
            FloatVector a5 = FloatVector.broadcast(S, a[ai + 5 * aRs]);
            c50 = madd(a5, b0, c50); c51 = madd(a5, b1, c51); c52 = madd(a5, b2, c52);
            FloatVector a6 = FloatVector.broadcast(S, a[ai + 6 * aRs]);
            c60 = madd(a6, b0, c60); c61 = madd(a6, b1, c61); c62 = madd(a6, b2, c62);
            FloatVector a7 = FloatVector.broadcast(S, a[ai + 7 * aRs]);
            c70 = madd(a7, b0, c70); c71 = madd(a7, b1, c71); c72 = madd(a7, b2, c72);
        }
        store(c00, c, ci, accumulate); store(c01, c, ci + L, accumulate); store(c02, c, ci + 2 * L, accumulate);
        store(c10, c, ci + ldc, accumulate); store(c11, c, ci + ldc + L, accumulate); store(c12, c, ci + ldc + 2 * L, accumulate);
        store(c20, c, ci + 2 * ldc, accumulate); store(c21, c, ci + 2 * ldc + L, accumulate); store(c22, c, ci + 2 * ldc + 2 * L, accumulate);
        store(c30, c, ci + 3 * ldc, accumulate); store(c31, c, ci + 3 * ldc + L, accumulate); store(c32, c, ci + 3 * ldc + 2 * L, accumulate);
        store(c40, c, ci + 4 * ldc, accumulate); store(c41, c, ci + 4 * ldc + L, accumulate); store(c42, c, ci + 4 * ldc + 2 * L, accumulate);
        store(c50, c, ci + 5 * ldc, accumulate); store(c51, c, ci + 5 * ldc + L, accumulate); store(c52, c, ci + 5 * ldc + 2 * L, accumulate);
        store(c60, c, ci + 6 * ldc, accumulate); store(c61, c, ci + 6 * ldc + L, accumulate); store(c62, c, ci + 6 * ldc + 2 * L, accumulate);
        store(c70, c, ci + 7 * ldc, accumulate); store(c71, c, ci + 7 * ldc + L, accumulate); store(c72, c, ci + 7 * ldc + 2 * L, accumulate);
    }

    private static void store(FloatVector acc, float[] c, int at, boolean accumulate) {
        (accumulate ? acc.add(FloatVector.fromArray(S, c, at)) : acc).intoArray(c, at);
    }
}
