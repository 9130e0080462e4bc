package org.tunefarm.agent.kernels.conv;

import org.tunefarm.agent.kernels.gemm.PackedGemm;

/**
 * Winograd F(2x2, 3x3) (Lavin and Gray, 2015): each 2x2 output tile is computed from a 4x4
 * input tile with 16 multiplies per channel pair instead of 36. With V = Bt d B the transformed
 * input tiles and U = G g Gt the transformed filters, the 16 element positions xi become 16
 * independent GEMMs M[xi] = V[xi] (tiles x C) · U[xi] (C x K), run on the GEMM family's packed
 * micro-kernels; Y = At M A folds each tile back to 2x2 outputs. Blocks of {@code tileP} tiles
 * are the units, so V and M of a block stay in cache between transform, GEMM and fold.
 * Only for 3x3, stride 1, dilation 1; any padding, ragged P and Q, either layout.
 */
final class WinogradConv implements ConvKernel {

    private final ConvGeometry g;
    private final float[] in;
    private final int tileP, tilesY, tilesX, tiles;
    private final float[][] v, m;
    private final PackedGemm[] gemms;
    private final float[] d = new float[16];

    WinogradConv(ConvGeometry g, float[] in, float[][] u, ConvConfig config) {
        this.g = g;
        this.in = in;
        tilesY = (g.p() + 1) / 2;
        tilesX = (g.q() + 1) / 2;
        tiles = g.n() * tilesY * tilesX;
        tileP = Math.min(config.tileP(), tiles);
        v = new float[16][tileP * g.c()];
        m = new float[16][tileP * g.k()];
        gemms = new PackedGemm[16];
        for (int xi = 0; xi < 16; xi++) {
            gemms[xi] = new PackedGemm(v[xi], u[xi], tileP, g.k(), g.c(), tileP, config.tileK(), config.tileC(),
                    config.microRows(), config.microVecs(), PackedGemm.packsA(g.k(), config.microVecs()), true)
                    .packFiltersOnce(); // U is fixed: packed once
        }
    }

    /** U[xi] = (G g Gt)[xi] for every (channel, filter), as 16 C x K matrices. */
    static float[][] transformFilter(ConvGeometry g, float[] kcrs) {
        int c = g.c(), k = g.k();
        float[][] u = new float[16][c * k];
        float[] t = new float[12];
        for (int f = 0; f < k; f++)
            for (int ch = 0; ch < c; ch++) {
                int at = g.filterIndex(f, ch, 0, 0);
                for (int col = 0; col < 3; col++) { // G g: 4x3
                    float g0 = kcrs[at + col], g1 = kcrs[at + 3 + col], g2 = kcrs[at + 6 + col];
                    t[col] = g0;
                    t[3 + col] = 0.5f * (g0 + g1 + g2);
                    t[6 + col] = 0.5f * (g0 - g1 + g2);
                    t[9 + col] = g2;
                }
                for (int row = 0; row < 4; row++) { // (G g) Gt: 4x4
                    float g0 = t[row * 3], g1 = t[row * 3 + 1], g2 = t[row * 3 + 2];
                    u[row * 4][ch * k + f] = g0;
                    u[row * 4 + 1][ch * k + f] = 0.5f * (g0 + g1 + g2);
                    u[row * 4 + 2][ch * k + f] = 0.5f * (g0 - g1 + g2);
                    u[row * 4 + 3][ch * k + f] = g2;
                }
            }
        return u;
    }

    @Override public int units() {
        return (tiles + tileP - 1) / tileP;
    }

    @Override public void compute(float[] out, int from, int to) {
        for (int u = from; u < to; u++) {
            int t0 = u * tileP, real = Math.min(tileP, tiles - t0);
            for (int j = 0; j < real; j++) transformInput(t0 + j, j);
            for (int xi = 0; xi < 16; xi++) gemms[xi].multiply(m[xi], 0, real, 0, g.k());
            for (int j = 0; j < real; j++) fold(out, t0 + j, j);
        }
    }

    /** V = Bt d B for every channel of tile {@code t}, into row {@code j} of the 16 V matrices. */
    private void transformInput(int t, int j) {
        int img = t / (tilesY * tilesX), y0 = t / tilesX % tilesY * 2 - g.pad(), x0 = t % tilesX * 2 - g.pad();
        int c = g.c();
        for (int ch = 0; ch < c; ch++) {
            for (int r = 0; r < 4; r++) {
                int iy = y0 + r;
                boolean rowIn = iy >= 0 && iy < g.h();
                for (int s = 0; s < 4; s++) {
                    int ix = x0 + s;
                    d[r * 4 + s] = rowIn && ix >= 0 && ix < g.w() ? in[g.inIndex(img, ch, iy, ix)] : 0f;
                }
            }
            for (int s = 0; s < 4; s++) { // Bt d, column by column
                float d0 = d[s], d1 = d[4 + s], d2 = d[8 + s], d3 = d[12 + s];
                d[s] = d0 - d2;
                d[4 + s] = d1 + d2;
                d[8 + s] = d2 - d1;
                d[12 + s] = d1 - d3;
            }
            int at = j * c + ch;
            for (int r = 0; r < 4; r++) { // (Bt d) B, row by row
                float d0 = d[r * 4], d1 = d[r * 4 + 1], d2 = d[r * 4 + 2], d3 = d[r * 4 + 3];
                v[r * 4][at] = d0 - d2;
                v[r * 4 + 1][at] = d1 + d2;
                v[r * 4 + 2][at] = d2 - d1;
                v[r * 4 + 3][at] = d1 - d3;
            }
        }
    }

    /** Y = At M A for every filter of tile {@code t}, written where the 2x2 tile is inside P x Q. */
    private void fold(float[] out, int t, int j) {
        int img = t / (tilesY * tilesX), y = t / tilesX % tilesY * 2, x = t % tilesX * 2;
        boolean down = y + 1 < g.p(), right = x + 1 < g.q();
        int k = g.k();
        for (int f = 0; f < k; f++) {
            int at = j * k + f;
            // At M: two rows of four.
            float a0 = m[0][at] + m[4][at] + m[8][at], b0 = m[4][at] - m[8][at] - m[12][at];
            float a1 = m[1][at] + m[5][at] + m[9][at], b1 = m[5][at] - m[9][at] - m[13][at];
            float a2 = m[2][at] + m[6][at] + m[10][at], b2 = m[6][at] - m[10][at] - m[14][at];
            float a3 = m[3][at] + m[7][at] + m[11][at], b3 = m[7][at] - m[11][at] - m[15][at];
            int o = g.outIndex(img, f, y, x);
            out[o] = a0 + a1 + a2;
            if (right) out[g.outIndex(img, f, y, x + 1)] = a1 - a2 - a3;
            if (down) {
                out[g.outIndex(img, f, y + 1, x)] = b0 + b1 + b2;
                if (right) out[g.outIndex(img, f, y + 1, x + 1)] = b1 - b2 - b3;
            }
        }
    }
}
