package org.tunefarm.agent.kernels.gemm;

import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Packing into micro-panels: the layout the micro-kernel reads with unit stride. An A panel is
 * {@code rows} rows of A stored column by column ({@code [p][r]}), a B panel is {@code width}
 * columns of B stored row by row ({@code [p][j]}). Rows or columns past the matrix edge are zero,
 * so the kernel always computes a full tile and the padding contributes nothing.
 *
 * <p>Packing is inside every GEMM call, so its speed counts: a 512^3 GEMM on the 3x3 tile spent
 * about a seventh of its time here (JFR samples, 14% of them) when A was packed row by row into
 * strided stores and B copied with one {@code System.arraycopy} per 24-float row. A full A panel
 * is now written in order, a vector of k steps of all its rows at a time, transposed by lane
 * shuffles ({@link PanelTranspose}), and a full B panel's rows are vector copies. B's block is
 * packed a few rows at a time across its panels ({@link #packBRows}), so that reading is along B's rows.
 */
final class MicroPanels {

    private static final VectorSpecies<Float> S = UnrolledMicroKernels.S;

    private MicroPanels() {}

    /** Packs A[i0:min(i0+rows, rowEnd), p0:p0+kc] into one panel of height {@code rows}. */
    static void packA(float[] a, int lda, int rowEnd, int i0, int p0, int kc, int rows, float[] dst, int at) {
        int real = Math.min(rows, rowEnd - i0);
        int s = i0 * lda + p0;
        if (real == rows && PanelTranspose.pack(a, s, lda, kc, rows, dst, at)) return;
        for (int r = 0; r < real; r++) {
            int src = s + r * lda;
            for (int p = 0; p < kc; p++) dst[at + p * rows + r] = a[src + p];
        }
        for (int r = real; r < rows; r++) {
            for (int p = 0; p < kc; p++) dst[at + p * rows + r] = 0f;
        }
    }

    /** Packs B[p0:p0+kc, j0:min(j0+width, colEnd)] into one panel of width {@code width}. */
    static void packB(float[] b, int ldb, int colEnd, int p0, int kc, int j0, int width, float[] dst, int at) {
        packBRows(b, ldb, p0, kc, 0, kc, j0, Math.min(j0 + width, colEnd), width, dst, at);
    }

    /** Packs the rows [i0, i1) of A's K slice into consecutive panels, each kc * rows floats. */
    static void packABlock(float[] a, int lda, int i0, int i1, int p0, int kc, int rows, float[] dst) {
        for (int i = i0, at = 0; i < i1; i += rows, at += kc * rows) packA(a, lda, i1, i, p0, kc, rows, dst, at);
    }

    /** Packs the columns [j0, j1) of B's K slice into consecutive panels, each kc * width floats, from {@code dst[at]}. */
    static void packBBlock(float[] b, int ldb, int p0, int kc, int j0, int j1, int width, float[] dst, int at) {
        packBRows(b, ldb, p0, kc, 0, kc, j0, j1, width, dst, at);
    }

    /**
     * The rows [from, to) of {@link #packBBlock}'s panels, {@link #ROWS_PER_PANEL_VISIT} rows of one
     * panel at a time, panel after panel across the block, so B is read along its rows in that many
     * streams and each visit writes a contiguous stretch of its panel. Panel by panel, each of a
     * panel's kc rows was a short read a whole row of B (4 KB at n = 1024) past the last, a new page
     * every time, which the hardware prefetchers do not follow: one row across all panels ran the
     * packed 1024^3 GEMM at 4x2 1.01-1.13x as fast as panel by panel on a Zen 3 (7 and 11
     * interleaved rounds in one JVM). On a Zen 5, one row across all panels wrote 16 streams 64 KB
     * apart at 8x2 (512-bit) and packed a 1024 x 1024 block in 0.36-0.50 ms, four rows per visit in
     * 0.16-0.18 (a 512 x 512 one 0.052-0.078 against 0.034-0.042; six rounds in one JVM, the same
     * panels). {@code width} is a whole number of vectors, as every micro-tile's is.
     */
    static void packBRows(float[] b, int ldb, int p0, int kc, int from, int to, int j0, int j1, int width, float[] dst, int at) {
        int lanes = S.length(), panel = kc * width, full = (j1 - j0) / width, real = j1 - j0 - full * width;
        for (int pg = from; pg < to; pg += ROWS_PER_PANEL_VISIT) {
            int pe = Math.min(to, pg + ROWS_PER_PANEL_VISIT);
            for (int q = 0; q < full; q++) {
                int src = (p0 + pg) * ldb + j0 + q * width, d = at + q * panel + pg * width;
                for (int p = pg; p < pe; p++, src += ldb, d += width) {
                    for (int v = 0; v < width; v += lanes) FloatVector.fromArray(S, b, src + v).intoArray(dst, d + v);
                }
            }
            if (real > 0) {
                for (int p = pg; p < pe; p++) {
                    int src = (p0 + p) * ldb + j0 + full * width, d = at + full * panel + p * width;
                    System.arraycopy(b, src, dst, d, real);
                    Arrays.fill(dst, d + real, d + width, 0f);
                }
            }
        }
    }

    /** Rows of B one visit to a panel packs ({@link #packBRows}). */
    static final int ROWS_PER_PANEL_VISIT = 4;
}
