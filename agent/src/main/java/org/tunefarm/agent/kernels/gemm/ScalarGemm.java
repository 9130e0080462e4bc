package org.tunefarm.agent.kernels.gemm;

import java.util.Arrays;

/**
 * Plain Java loops over cache tiles, in i-j-k or i-k-j order: the baseline a user writes by
 * hand. Tiles are walked N, then K, then M, so a copied B tile ({@code packB}) is reused by
 * every row block. The i-k-j inner loop is a contiguous saxpy the JIT vectorises; the i-j-k
 * inner loop is a dot product, whose fp32 sum the JIT must keep in order (no vectorising), and
 * which strides through B unless the tile is packed transposed.
 */
final class ScalarGemm implements RegionKernel {

    private final float[] a, b;
    private final int n, k;
    private final boolean ijk, packB;
    private final int tileM, tileN, tileK;
    /** The current B tile: kc x nc row-major for ikj, nc x kc (transposed) for ijk. */
    private final float[] packed;

    ScalarGemm(GemmWorkload w, GemmConfig config) {
        a = w.a;
        b = w.b;
        n = w.n;
        k = w.k;
        ijk = config.loopOrder().equals("ijk");
        packB = config.packB();
        tileM = Math.min(config.tileM(), w.m);
        tileN = Math.min(config.tileN(), w.n);
        tileK = Math.min(config.tileK(), w.k);
        packed = packB ? new float[tileN * tileK] : null;
    }

    @Override public void compute(float[] c, int m0, int m1, int n0, int n1, int k0, int k1) {
        for (int i = m0; i < m1; i++) Arrays.fill(c, i * n + n0, i * n + n1, 0f);
        for (int jc = n0; jc < n1; jc += tileN) {
            int nc = Math.min(tileN, n1 - jc);
            for (int pc = k0; pc < k1; pc += tileK) {
                int kc = Math.min(tileK, k1 - pc);
                if (packB) pack(pc, kc, jc, nc);
                for (int ic = m0; ic < m1; ic += tileM) {
                    int mc = Math.min(tileM, m1 - ic);
                    if (ijk) ijkTile(c, ic, mc, pc, kc, jc, nc);
                    else ikjTile(c, ic, mc, pc, kc, jc, nc);
                }
            }
        }
    }

    private void ikjTile(float[] c, int ic, int mc, int pc, int kc, int jc, int nc) {
        float[] src = packB ? packed : b;
        for (int i = ic; i < ic + mc; i++) {
            int cRow = i * n + jc;
            for (int p = pc; p < pc + kc; p++) {
                float aip = a[i * k + p];
                int bRow = packB ? (p - pc) * nc : p * n + jc;
                for (int j = 0; j < nc; j++) c[cRow + j] += aip * src[bRow + j];
            }
        }
    }

    private void ijkTile(float[] c, int ic, int mc, int pc, int kc, int jc, int nc) {
        for (int i = ic; i < ic + mc; i++) {
            int aRow = i * k + pc;
            for (int j = 0; j < nc; j++) {
                float sum = 0;
                if (packB) {
                    int bCol = j * kc;
                    for (int p = 0; p < kc; p++) sum += a[aRow + p] * packed[bCol + p];
                } else {
                    int bCol = pc * n + jc + j;
                    for (int p = 0; p < kc; p++) sum += a[aRow + p] * b[bCol + p * n];
                }
                c[i * n + jc + j] += sum;
            }
        }
    }

    private void pack(int pc, int kc, int jc, int nc) {
        for (int p = 0; p < kc; p++) {
            int src = (pc + p) * n + jc;
            if (ijk) {
                for (int j = 0; j < nc; j++) packed[j * kc + p] = b[src + j];
            } else {
                System.arraycopy(b, src, packed, p * nc, nc);
            }
        }
    }
}
