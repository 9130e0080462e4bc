package org.tunefarm.agent.kernels.conv;

import java.util.Arrays;

/**
 * The direct convolution as plain loops, the family's untuned baseline. NCHW walks one output
 * plane per (image, filter) and adds each filter tap times a shifted input row, so the inner
 * loop runs along a row (one the JIT may vectorise at stride 1). NHWC walks one output row of
 * pixels and adds each input value times a filter row (filters RSCK), innermost along K.
 */
final class ScalarConv implements ConvKernel {

    private final ConvGeometry g;
    private final float[] in, filter;

    ScalarConv(ConvGeometry g, float[] in, float[] kcrs) {
        this.g = g;
        this.in = in;
        this.filter = g.nhwc() ? rsck(g, kcrs) : kcrs;
    }

    @Override public int units() {
        return g.nhwc() ? g.n() * g.p() : g.n() * g.k();
    }

    @Override public void compute(float[] out, int from, int to) {
        for (int u = from; u < to; u++) {
            if (g.nhwc()) row(out, u / g.p(), u % g.p());
            else plane(out, u / g.k(), u % g.k());
        }
    }

    private void plane(float[] out, int img, int f) {
        int base = g.outIndex(img, f, 0, 0);
        Arrays.fill(out, base, base + g.p() * g.q(), 0f);
        int st = g.stride();
        for (int ch = 0; ch < g.c(); ch++)
            for (int fr = 0; fr < g.r(); fr++)
                for (int fs = 0; fs < g.s(); fs++) {
                    float wv = filter[g.filterIndex(f, ch, fr, fs)];
                    int off = g.inX(0, fs);
                    // Columns whose tap lands inside the row: off + x*st in [0, W).
                    int x0 = off >= 0 ? 0 : (-off + st - 1) / st;
                    int x1 = Math.min(g.q(), off >= g.w() ? 0 : (g.w() - 1 - off) / st + 1);
                    for (int y = 0; y < g.p(); y++) {
                        int iy = g.inY(y, fr);
                        if (iy < 0 || iy >= g.h()) continue;
                        int o = base + y * g.q(), i = g.inIndex(img, ch, iy, 0) + off;
                        for (int x = x0; x < x1; x++) out[o + x] += wv * in[i + x * st];
                    }
                }
    }

    private void row(float[] out, int img, int y) {
        int k = g.k(), c = g.c();
        int base = g.outIndex(img, 0, y, 0);
        Arrays.fill(out, base, base + g.q() * k, 0f);
        for (int x = 0; x < g.q(); x++) {
            int o = base + x * k;
            for (int fr = 0; fr < g.r(); fr++) {
                int iy = g.inY(y, fr);
                if (iy < 0 || iy >= g.h()) continue;
                for (int fs = 0; fs < g.s(); fs++) {
                    int ix = g.inX(x, fs);
                    if (ix < 0 || ix >= g.w()) continue;
                    int i = g.inIndex(img, 0, iy, ix), fBase = (fr * g.s() + fs) * c * k;
                    for (int ch = 0; ch < c; ch++) {
                        float a = in[i + ch];
                        int fo = fBase + ch * k;
                        for (int f = 0; f < k; f++) out[o + f] += a * filter[fo + f];
                    }
                }
            }
        }
    }

    /** KCRS to RSCK, so a filter row over K is contiguous. */
    static float[] rsck(ConvGeometry g, float[] kcrs) {
        float[] out = new float[kcrs.length];
        for (int f = 0; f < g.k(); f++)
            for (int ch = 0; ch < g.c(); ch++)
                for (int fr = 0; fr < g.r(); fr++)
                    for (int fs = 0; fs < g.s(); fs++) out[((fr * g.s() + fs) * g.c() + ch) * g.k() + f] = kcrs[g.filterIndex(f, ch, fr, fs)];
        return out;
    }
}
