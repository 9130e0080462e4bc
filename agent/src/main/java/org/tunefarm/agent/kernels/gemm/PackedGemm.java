package org.tunefarm.agent.kernels.gemm;

/**
 * The register-blocked, packed GEMM path ({@link BlockedVectorGemm}) for other families:
 * pointwise, im2col and Winograd convolutions multiply their own matrices with it rather than keeping a
 * copy of the micro-kernels. One instance per thread: it owns its packing buffers. A and B are
 * bound at construction, so a caller refills them in place between calls.
 */
public final class PackedGemm {

    /** From how many B panels reading each packed A panel packing A pays ({@link #packsA}). */
    private static final int PANELS_THAT_PAY_FOR_PACKING_A = 16;

    private final BlockedVectorGemm gemm;
    private final int k;

    /**
     * C = A·B for row-major A (m x k) and B (k x n); tiles and micro-tile as in the gemm space
     * ({@code microVecs} vectors of {@link #lanes()} floats wide).
     */
    public PackedGemm(float[] a, float[] b, int m, int n, int k, int tileM, int tileN, int tileK,
                      int microRows, int microVecs, boolean packA, boolean packB) {
        if (a.length < (long) m * k || b.length < (long) k * n) throw new IllegalArgumentException("A or B is smaller than " + m + "x" + k + " and " + k + "x" + n);
        this.k = k;
        gemm = new BlockedVectorGemm(a, b, m, n, k, new GemmConfig("vector", "ikj", tileM, tileN, tileK, microRows, microVecs, packA, packB, 1));
    }

    /**
     * Packs B into the micro-kernels' panels once, now, rather than on every call: for B that is a
     * layer's filters, fixed for the layer's life, as inference engines pack their weights when a
     * model loads. The filters must not change afterwards; calls over all of B's columns read the
     * packed panels (a call over part of them still packs its own).
     */
    public PackedGemm packFiltersOnce() {
        gemm.prepackB();
        return this;
    }

    /** Overwrites C[m0:m1, n0:n1] (row-major, n columns) with the same block of A·B. */
    public void multiply(float[] c, int m0, int m1, int n0, int n1) {
        gemm.compute(c, m0, m1, n0, n1, 0, k);
    }

    /**
     * Overwrites C[m0:m1, n0:n1] with that block of A·B where B begins at row {@code bRow} of the
     * bound B array and C at row {@code cRow} of {@code c}: one image of a batch stored as
     * consecutive matrices (NCHW), with no copy.
     */
    public void multiply(float[] c, int cRow, int bRow, int m0, int m1, int n0, int n1) {
        gemm.compute(c, cRow, bRow, m0, m1, n0, n1, 0, k);
    }

    /**
     * Whether packing A pays for a product {@code n} columns wide on this micro-tile: a packed A
     * panel is read once per B panel, so packing it (bound by reading A: 0.4-0.7 ns a float on a
     * Zen 3) pays only where many B panels read it. Measured on that machine, A packed over A read
     * in place, 3x3 and 4x2, one JVM: N = 24 (one 3x3 panel) 0.59-0.67x, N = 96 (four to six) 0.91-0.93x,
     * N = 384 (16 to 24) 0.99-1.07x, N = 512 (22 to 32) 1.02-1.28x, N = 1280 (54 to 80) 1.04-1.45x.
     */
    public static boolean packsA(int n, int microVecs) {
        int width = microVecs * lanes();
        return (n + width - 1) / width >= PANELS_THAT_PAY_FOR_PACKING_A;
    }

    /** Floats per vector of the species the micro-kernels use. */
    public static int lanes() {
        return MicroKernel.lanes();
    }
}
