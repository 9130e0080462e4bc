package org.tunefarm.agent.kernels.conv;

/**
 * How a depthwise convolution is cut into units of work: per image, blocks of {@code tileC}
 * channels times blocks of {@code tileH} output rows; and the one-output fallback the vector
 * kernels use at borders and tails. Filters are R x S x C here, so a tap's channels are contiguous.
 */
record DepthwiseBlocks(ConvGeometry g, int tileC, int tileH) {

    int channelBlocks() { return (g.c() + tileC - 1) / tileC; }

    int rowBlocks() { return (g.p() + tileH - 1) / tileH; }

    int units() { return g.n() * channelBlocks() * rowBlocks(); }

    int image(int unit) { return unit / (channelBlocks() * rowBlocks()); }

    int channelFrom(int unit) { return unit / rowBlocks() % channelBlocks() * tileC; }

    int channelTo(int unit) { return Math.min(g.c(), channelFrom(unit) + tileC); }

    int rowFrom(int unit) { return unit % rowBlocks() * tileH; }

    int rowTo(int unit) { return Math.min(g.p(), rowFrom(unit) + tileH); }

    /** C x R x S to R x S x C. */
    static float[] rsc(ConvGeometry g, float[] crs) {
        float[] out = new float[crs.length];
        for (int ch = 0; ch < g.c(); ch++)
            for (int t = 0; t < g.r() * g.s(); t++) out[t * g.c() + ch] = crs[ch * g.r() * g.s() + t];
        return out;
    }

    /** One output, taps in the padding skipped. */
    float point(float[] in, float[] rsc, int img, int ch, int y, int x) {
        float sum = 0;
        for (int fr = 0; fr < g.r(); fr++) {
            int iy = g.inY(y, fr);
            if (iy < 0 || iy >= g.h()) continue;
            for (int fs = 0; fs < g.s(); fs++) {
                int ix = g.inX(x, fs);
                if (ix < 0 || ix >= g.w()) continue;
                sum += in[g.inIndex(img, ch, iy, ix)] * rsc[(fr * g.s() + fs) * g.c() + ch];
            }
        }
        return sum;
    }
}
