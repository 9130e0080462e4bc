package org.tunefarm.agent.kernels.gemm;

/**
 * The register-blocked vector path, in the loop order of GotoBLAS/BLIS: N in tileN blocks, K in
 * tileK slices (a B slice stays in L2, one B micro-panel in L1), M in tileM blocks (an A block
 * stays in L2), then micro-panels of B and of A, each pair one micro-kernel call. Ragged edges
 * never reach the kernel: a partial A or B micro-panel is packed with zero padding (even when
 * that operand is otherwise read in place), and a partial C tile goes through a scratch tile.
 * A right edge narrower than the tile runs on a narrower kernel where there is one ({@link TileKernels}).
 *
 * <p>Where B is the same on every call (a layer's filters, {@link PackedGemm#packFiltersOnce}), it
 * can be packed once, every (N block, K slice) of it, and a call over all of N and K reads those
 * panels instead of packing its own.
 */
final class BlockedVectorGemm implements RegionKernel {

    private final float[] a, b;
    private final int n, k;
    private final int rows, width, tileM, tileN, tileK;
    private final boolean packA, packB;
    private final TileKernels kernels;
    private final float[] aPanels, bPanels, aEdge, bEdge, cEdge;
    /** B packed once, block after block ({@link #prepackB}); null until then. */
    private float[] bPacked;

    BlockedVectorGemm(GemmWorkload w, GemmConfig config) {
        this(w.a, w.b, w.m, w.n, w.k, config, true);
    }

    /**
     * A team member's share ({@link SharedPanelGemm}): its B panels are the team's, handed to
     * {@link #chunk}, so it keeps none of its own ({@code tileN x tileK} floats, 4 MB at 1024^3
     * blocks); {@link #compute} is not for it.
     */
    static BlockedVectorGemm teamMember(GemmWorkload w, GemmConfig config) {
        return new BlockedVectorGemm(w.a, w.b, w.m, w.n, w.k, config, false);
    }

    /** Multiplies A (m x k) by B (k x n), both row-major; other families reach it through {@link PackedGemm}. */
    BlockedVectorGemm(float[] a, float[] b, int m, int n, int k, GemmConfig config) {
        this(a, b, m, n, k, config, true);
    }

    private BlockedVectorGemm(float[] a, float[] b, int m, int n, int k, GemmConfig config, boolean ownBPanels) {
        this.a = a;
        this.b = b;
        this.n = n;
        this.k = k;
        rows = config.microRows();
        width = config.microVecs() * MicroKernel.lanes();
        // Blocks hold whole micro-tiles; a tile below one micro-tile becomes one micro-tile.
        tileM = Math.max(1, Math.min(config.tileM(), roundUp(m, rows)) / rows) * rows;
        tileN = Math.max(1, Math.min(config.tileN(), roundUp(n, width)) / width) * width;
        tileK = Math.min(config.tileK(), k);
        packA = config.packA();
        packB = config.packB();
        kernels = new TileKernels(rows, config.microVecs());
        aPanels = packA ? new float[tileM * tileK] : null;
        bPanels = packB && ownBPanels ? new float[tileN * tileK] : null;
        aEdge = packA ? null : new float[rows * tileK];
        bEdge = packB ? null : new float[width * tileK];
        cEdge = new float[rows * width];
    }

    @Override public void compute(float[] c, int m0, int m1, int n0, int n1, int k0, int k1) {
        compute(c, 0, 0, m0, m1, n0, n1, k0, k1);
    }

    /**
     * As {@link #compute(float[], int, int, int, int, int, int)} with B's rows starting at row
     * {@code bRow} of {@code b} and C's at row {@code cRow} of {@code c} (both n wide): one image of
     * a batch that lies in the arrays as consecutive matrices, multiplied without a copy.
     */
    void compute(float[] c, int cRow, int bRow, int m0, int m1, int n0, int n1, int k0, int k1) {
        boolean prepacked = bPacked != null && bRow == 0 && n0 == 0 && n1 == n && k0 == 0 && k1 == k;
        for (int jc = n0; jc < n1; jc += tileN) {
            int jEnd = Math.min(jc + tileN, n1);
            for (int pc = k0; pc < k1; pc += tileK) {
                int kc = Math.min(tileK, k1 - pc);
                float[] bp = bPanels;
                int bAt = 0;
                if (prepacked) {
                    bp = bPacked;
                    bAt = packedOffset(jc, pc);
                } else if (packB) {
                    MicroPanels.packBBlock(b, n, bRow + pc, kc, jc, jEnd, width, bPanels, 0);
                }
                for (int ic = m0; ic < m1; ic += tileM) {
                    int iEnd = Math.min(ic + tileM, m1);
                    if (packA) MicroPanels.packABlock(a, k, ic, iEnd, pc, kc, rows, aPanels);
                    block(c, cRow, bRow, ic, iEnd, jc, jEnd, pc, kc, pc > k0, bp, bAt);
                }
            }
        }
    }

    /**
     * One M chunk, rows [ic, iEnd), of one (N block, K slice) against B panels packed elsewhere (a
     * team's shared block, {@link SharedPanelGemm}), laid out as {@link MicroPanels#packBBlock}
     * lays them from {@code bAt}: packs this instance's own A panels for the chunk, which must be
     * at most {@link #tileM()} rows.
     */
    void chunk(float[] c, int ic, int iEnd, int jc, int jEnd, int pc, int kc, boolean accumulate, float[] bp, int bAt) {
        if (packA) MicroPanels.packABlock(a, k, ic, iEnd, pc, kc, rows, aPanels);
        block(c, 0, 0, ic, iEnd, jc, jEnd, pc, kc, accumulate, bp, bAt);
    }

    /** The M block in rows, whole micro-tiles. */
    int tileM() { return tileM; }

    /** The N block in columns, whole micro-tiles. */
    int tileN() { return tileN; }

    /** The K slice. */
    int tileK() { return tileK; }

    /** Whether B is packed into panels (otherwise read in place). */
    boolean packsB() { return packB; }

    /**
     * Packs all of B (rows [0, k), columns [0, n)) now, for every call over all of N and K to read
     * instead of packing its own; B must not change afterwards. Nothing to do where B is read in place.
     */
    void prepackB() {
        if (!packB) return;
        float[] all = new float[roundUp(n, width) * k];
        for (int jc = 0; jc < n; jc += tileN) {
            int jEnd = Math.min(jc + tileN, n);
            for (int pc = 0; pc < k; pc += tileK) {
                MicroPanels.packBBlock(b, n, pc, Math.min(tileK, k - pc), jc, jEnd, width, all, packedOffset(jc, pc));
            }
        }
        bPacked = all;
    }

    /**
     * Where block (jc, pc) starts in {@link #bPacked}: the N blocks before it hold all of K each
     * (tileN is whole panels, so jc * k floats), and the K slices before it in its own N block
     * hold its padded width each.
     */
    private int packedOffset(int jc, int pc) {
        return jc * k + roundUp(Math.min(tileN, n - jc), width) * pc;
    }

    /** One (M block, N block, K slice): every micro-tile, B panel outer so it stays in L1. */
    private void block(float[] c, int cRow, int bRow, int ic, int iEnd, int jc, int jEnd, int pc, int kc, boolean accumulate,
                       float[] bp, int bAt) {
        for (int jr = jc; jr < jEnd; jr += width) {
            int cols = Math.min(width, jEnd - jr);
            MicroKernel panelKernel = kernels.forColumns(cols);
            int kernelCols = kernels.columnsWritten(cols);
            float[] bArr;
            int bi, bRs;
            if (packB) {
                bArr = bp;
                bi = bAt + (jr - jc) / width * kc * width;
                bRs = width;
            } else if (cols == width) {
                bArr = b;
                bi = (bRow + pc) * n + jr;
                bRs = n;
            } else {
                MicroPanels.packB(b, n, jEnd, bRow + pc, kc, jr, width, bEdge, 0);
                bArr = bEdge;
                bi = 0;
                bRs = width;
            }
            for (int ir = ic; ir < iEnd; ir += rows) {
                int real = Math.min(rows, iEnd - ir);
                float[] aArr;
                int ai, aRs, aCs;
                if (packA) {
                    aArr = aPanels;
                    ai = (ir - ic) / rows * kc * rows;
                    aRs = 1;
                    aCs = rows;
                } else if (real == rows) {
                    aArr = a;
                    ai = ir * k + pc;
                    aRs = k;
                    aCs = 1;
                } else {
                    MicroPanels.packA(a, k, iEnd, ir, pc, kc, rows, aEdge, 0);
                    aArr = aEdge;
                    ai = 0;
                    aRs = 1;
                    aCs = rows;
                }
                if (real == rows && cols == kernelCols) {
                    panelKernel.run(kc, aArr, ai, aRs, aCs, bArr, bi, bRs, c, (cRow + ir) * n + jr, n, accumulate);
                } else {
                    panelKernel.run(kc, aArr, ai, aRs, aCs, bArr, bi, bRs, cEdge, 0, width, false);
                    mergeEdge(c, cRow + ir, real, jr, cols, accumulate);
                }
            }
        }
    }

    /** Copies (or adds) the real part of the scratch tile into C. */
    private void mergeEdge(float[] c, int ir, int real, int jr, int cols, boolean accumulate) {
        for (int r = 0; r < real; r++) {
            int to = (ir + r) * n + jr, from = r * width;
            if (accumulate) {
                for (int j = 0; j < cols; j++) c[to + j] += cEdge[from + j];
            } else {
                System.arraycopy(cEdge, from, c, to, cols);
            }
        }
    }

    private static int roundUp(int v, int multiple) {
        return (v + multiple - 1) / multiple * multiple;
    }
}
