package org.tunefarm.agent.kernels.conv;

import java.util.Arrays;
import org.tunefarm.agent.kernels.gemm.PackedGemm;

/**
 * im2col + GEMM: a block of {@code tileP} output positions is unrolled into a tileP x (R*S*C)
 * matrix of the input pixels each one reads (zeros for padding), and multiplied by the filters
 * as an (R*S*C) x K matrix on the GEMM family's packed micro-kernels ({@link PackedGemm}, with
 * {@code tileK} and {@code tileC} as its N and K blocks). Blocks are the units, so the unrolled
 * block is still in cache when the GEMM reads it and memory stays at tileP rows per thread.
 * In NHWC both the gather (runs of C channels) and the result (tileP rows of K) are contiguous.
 * The filters are packed into the micro-kernels' panels once, when the layer is built, not once per block.
 */
final class Im2colConv implements ConvKernel {

    private final ConvGeometry g;
    private final float[] in, columns, result;
    private final int tileP, reduction, positions;
    private final PackedGemm gemm;

    Im2colConv(ConvGeometry g, float[] in, float[] filterMatrix, ConvConfig config) {
        this.g = g;
        this.in = in;
        positions = g.n() * g.p() * g.q();
        tileP = Math.min(config.tileP(), positions);
        reduction = g.r() * g.s() * g.c();
        columns = new float[tileP * reduction];
        result = new float[tileP * g.k()];
        gemm = new PackedGemm(columns, filterMatrix, tileP, g.k(), reduction, tileP, config.tileK(), config.tileC(),
                config.microRows(), config.microVecs(), PackedGemm.packsA(g.k(), config.microVecs()), true).packFiltersOnce();
    }

    /** The filters as the GEMM's B: row (fr, fs, ch), column f, i.e. RSCK. */
    static float[] filterMatrix(ConvGeometry g, float[] kcrs) {
        return ScalarConv.rsck(g, kcrs);
    }

    @Override public int units() {
        return (positions + tileP - 1) / tileP;
    }

    @Override public void compute(float[] out, int from, int to) {
        for (int u = from; u < to; u++) {
            int m0 = u * tileP, real = Math.min(tileP, positions - m0);
            for (int j = 0; j < real; j++) unroll(m0 + j, j * reduction);
            gemm.multiply(result, 0, real, 0, g.k());
            store(out, m0, real);
        }
    }

    /** One row of the matrix: the R*S*C input values output position {@code m} reads. */
    private void unroll(int m, int at) {
        int img = m / (g.p() * g.q()), y = m / g.q() % g.p(), x = m % g.q();
        int c = g.c(), step = g.inChannelStep();
        for (int fr = 0; fr < g.r(); fr++) {
            int iy = g.inY(y, fr);
            if (g.nhwc() && g.dilation() == 1 && iy >= 0 && iy < g.h() && g.inX(x, 0) >= 0 && g.inX(x, g.s() - 1) < g.w()) {
                // the filter row's S taps read one contiguous run of S x C inputs
                System.arraycopy(in, g.inIndex(img, 0, iy, g.inX(x, 0)), columns, at, g.s() * c);
                at += g.s() * c;
                continue;
            }
            for (int fs = 0; fs < g.s(); fs++, at += c) {
                int ix = g.inX(x, fs);
                if (iy < 0 || iy >= g.h() || ix < 0 || ix >= g.w()) {
                    Arrays.fill(columns, at, at + c, 0f);
                } else if (g.nhwc()) {
                    System.arraycopy(in, g.inIndex(img, 0, iy, ix), columns, at, c);
                } else {
                    int i = g.inIndex(img, 0, iy, ix);
                    for (int ch = 0; ch < c; ch++) columns[at + ch] = in[i + ch * step];
                }
            }
        }
    }

    private void store(float[] out, int m0, int real) {
        int k = g.k();
        if (g.nhwc()) { // position m's channels start at m * K
            System.arraycopy(result, 0, out, m0 * k, real * k);
            return;
        }
        int plane = g.p() * g.q();
        for (int j = 0; j < real; j++) {
            int m = m0 + j, img = m / plane, o = img * k * plane + m % plane;
            for (int f = 0; f < k; f++) out[o + f * plane] = result[j * k + f];
        }
    }
}
