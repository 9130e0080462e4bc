package org.tunefarm.agent.kernels.gemm;

import java.util.Arrays;

/**
 * Packing into micro-panels: the layout the micro-kernel reads with unit stride. An A panel is
 * {@code rows} rows of A stored column by column ({@code [p][r]}), a B panel is {@code width}
 * columns of B stored row by row ({@code [p][j]}). Rows or columns past the matrix edge are zero,
 * so the kernel always computes a full tile and the padding contributes nothing.
 */
final class MicroPanels {

    private MicroPanels() {}

    /** Packs A[i0:min(i0+rows, rowEnd), p0:p0+kc] into one panel of height {@code rows}. */
    static void packA(float[] a, int lda, int rowEnd, int i0, int p0, int kc, int rows, float[] dst, int at) {
        int real = Math.min(rows, rowEnd - i0);
        for (int r = 0; r < real; r++) {
            int src = (i0 + r) * lda + p0;
            for (int p = 0; p < kc; p++) dst[at + p * rows + r] = a[src + p];
        }
        for (int r = real; r < rows; r++) {
            for (int p = 0; p < kc; p++) dst[at + p * rows + r] = 0f;
        }
    }

    /** Packs B[p0:p0+kc, j0:min(j0+width, colEnd)] into one panel of width {@code width}. */
    static void packB(float[] b, int ldb, int colEnd, int p0, int kc, int j0, int width, float[] dst, int at) {
        int real = Math.min(width, colEnd - j0);
        for (int p = 0; p < kc; p++) {
            int to = at + p * width;
            System.arraycopy(b, (p0 + p) * ldb + j0, dst, to, real);
            if (real < width) Arrays.fill(dst, to + real, to + width, 0f);
        }
    }

    /** Packs the rows [i0, i1) of A's K slice into consecutive panels, each kc * rows floats. */
    static void packABlock(float[] a, int lda, int i0, int i1, int p0, int kc, int rows, float[] dst) {
        for (int i = i0, at = 0; i < i1; i += rows, at += kc * rows) packA(a, lda, i1, i, p0, kc, rows, dst, at);
    }

    /** Packs the columns [j0, j1) of B's K slice into consecutive panels, each kc * width floats, from {@code dst[at]}. */
    static void packBBlock(float[] b, int ldb, int p0, int kc, int j0, int j1, int width, float[] dst, int at) {
        for (int j = j0; j < j1; j += width, at += kc * width) packB(b, ldb, j1, p0, kc, j, width, dst, at);
    }
}
