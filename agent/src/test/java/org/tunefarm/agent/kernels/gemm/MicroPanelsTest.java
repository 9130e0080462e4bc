package org.tunefarm.agent.kernels.gemm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Packed panels hold exactly the layout the micro-kernels read: checked against its definition, padding included. */
class MicroPanelsTest {

    private static final int LDA = 61, LDB = 53, ROWS_OF_A = 13;

    @Test void anAPanelIsItsRowsColumnByColumnZeroPadded() {
        float[] a = values(ROWS_OF_A * LDA);
        for (int rows = 1; rows <= 8; rows++)
            for (int i0 = 0; i0 < ROWS_OF_A; i0 += 3)
                // a tail shorter than a vector, one vector and a tail, several vectors of steps and a tail
                for (int kc : new int[] {1, 5, 17, 53}) {
                    int p0 = 2, at = 7;
                    float[] got = new float[at + kc * rows + 3];
                    Arrays.fill(got, -1f); // stale values the packing must overwrite (or leave, past the panel)
                    float[] want = got.clone();
                    MicroPanels.packA(a, LDA, ROWS_OF_A, i0, p0, kc, rows, got, at);
                    for (int p = 0; p < kc; p++)
                        for (int r = 0; r < rows; r++)
                            want[at + p * rows + r] = i0 + r < ROWS_OF_A ? a[(i0 + r) * LDA + p0 + p] : 0f;
                    assertArrayEquals(want, got, "rows " + rows + " from row " + i0 + " kc " + kc);
                }
    }

    @Test void aBPanelIsItsColumnsRowByRowZeroPadded() {
        float[] b = values(30 * LDB);
        int lanes = MicroKernel.lanes();
        for (int vecs = 1; vecs <= 4; vecs++)
            for (int j0 : new int[] {0, 5, LDB - 3 * lanes, LDB - 2})
                for (int kc : new int[] {1, 9}) {
                    int width = vecs * lanes, p0 = 4, at = 3;
                    float[] got = new float[at + kc * width + 2];
                    Arrays.fill(got, -1f);
                    float[] want = got.clone();
                    MicroPanels.packB(b, LDB, LDB, p0, kc, j0, width, got, at);
                    for (int p = 0; p < kc; p++)
                        for (int j = 0; j < width; j++)
                            want[at + p * width + j] = j0 + j < LDB ? b[(p0 + p) * LDB + j0 + j] : 0f;
                    assertArrayEquals(want, got, "width " + width + " from column " + j0 + " kc " + kc);
                }
    }

    @Test void aBBlockPackedInRunsOfRowsIsItsPanelsOneAfterAnotherZeroPadded() {
        float[] b = values(30 * LDB);
        int lanes = MicroKernel.lanes();
        for (int vecs = 1; vecs <= 3; vecs++) {
            int width = vecs * lanes;
            for (int[] cols : new int[][] {{0, LDB}, {2, 2 + 2 * width}, {5, 5 + 2 * width + 1}, {LDB - 3, LDB}})
                for (int kc : new int[] {1, 7, 16}) {
                    int j0 = cols[0], j1 = cols[1], p0 = 3, at = 5;
                    int panels = (j1 - j0 + width - 1) / width;
                    float[] want = new float[at + panels * kc * width + 2];
                    Arrays.fill(want, -1f);
                    for (int q = 0; q < panels; q++)
                        for (int p = 0; p < kc; p++)
                            for (int j = 0; j < width; j++) {
                                int col = j0 + q * width + j;
                                want[at + (q * kc + p) * width + j] = col < j1 ? b[(p0 + p) * LDB + col] : 0f;
                            }
                    float[] whole = new float[want.length], runs = new float[want.length];
                    Arrays.fill(whole, -1f);
                    Arrays.fill(runs, -1f);
                    MicroPanels.packBBlock(b, LDB, p0, kc, j0, j1, width, whole, at);
                    // runs of 3 rows, last first: as a team's threads may take them
                    for (int from = (kc - 1) / 3 * 3; from >= 0; from -= 3)
                        MicroPanels.packBRows(b, LDB, p0, kc, from, Math.min(kc, from + 3), j0, j1, width, runs, at);
                    String what = "width " + width + " columns [" + j0 + ", " + j1 + ") kc " + kc;
                    assertArrayEquals(want, whole, what);
                    assertArrayEquals(want, runs, what + " in runs");
                }
        }
    }

    private static float[] values(int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = i + 1;
        return v;
    }
}
