package org.tunefarm.agent.kernels.gemm;

/**
 * Computes one rows x (vecs * lanes) tile of C from a K slice of A and B:
 * {@code C[r][j] (+)= sum over p < kc of A(r, p) * B(p, j)}, where A(r, p) is
 * {@code a[ai + r * aRs + p * aCs]} and B(p, j) is {@code b[bi + p * bRs + j]}. Strides let a
 * packed panel (aRs 1, aCs rows; bRs the panel width) and a matrix read in place share one kernel.
 * The whole tile is written: callers hand it a scratch tile where C is ragged. Public so the
 * convolution families run their direct loops on the same kernels.
 */
@FunctionalInterface
public interface MicroKernel {

    default void run(int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                     float[] c, int ci, int ldc, boolean accumulate) {
        runSegments(1, 0, kc, a, ai, aRs, aCs, b, bi, bRs, c, ci, ldc, accumulate);
    }

    /**
     * As {@link #run}, over {@code segments} runs of {@code kc} steps in one call: A's run s
     * starts {@code aSeg} after run s - 1, while B goes on where the previous run ended. A direct
     * convolution's filter rows are such runs (each a contiguous stretch of one input row; the
     * packed filter's rows follow one another), reduced with the accumulators held in registers
     * across rows, so C is written once rather than once per filter row. The written-out kernels
     * hold the accumulators across runs where A's steps are contiguous (aCs 1) and B is packed (bRs
     * the tile's width), as there; with other strides they reduce run after run, accumulating.
     */
    void runSegments(int segments, int aSeg, int kc, float[] a, int ai, int aRs, int aCs, float[] b, int bi, int bRs,
                     float[] c, int ci, int ldc, boolean accumulate);

    /** The written-out kernel for the tile when there is one, else the generic loop. */
    static MicroKernel forTile(int rows, int vecs) {
        MicroKernel k = writtenOut(rows, vecs);
        return k != null ? k : new GenericMicroKernel(rows, vecs);
    }

    /** The written-out kernel for the tile, which keeps its accumulators in registers; null when there is none. */
    static MicroKernel writtenOut(int rows, int vecs) {
        return UnrolledMicroKernels.BY_TILE.get(tileKey(rows, vecs));
    }

    /** Names a micro-tile in the kernel tables. */
    static int tileKey(int rows, int vecs) {
        return rows * 1024 + vecs;
    }

    /** Floats in one vector of the species the kernels use. */
    static int lanes() {
        return UnrolledMicroKernels.S.length();
    }
}
