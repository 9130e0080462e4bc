package org.tunefarm.agent.kernels.gemm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Packed panels hold exactly the layout the micro-kernels read: checked against its definition, padding included. */
class MicroPanelsTest {

    private static final int LDA = 23, LDB = 53, ROWS_OF_A = 13;

    @Test void anAPanelIsItsRowsColumnByColumnZeroPadded() {
        float[] a = values(ROWS_OF_A * LDA);
        for (int rows = 1; rows <= 8; rows++)
            for (int i0 = 0; i0 < ROWS_OF_A; i0 += 3)
                for (int kc : new int[] {1, 5, 17}) {
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

    private static float[] values(int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = i + 1;
        return v;
    }
}
