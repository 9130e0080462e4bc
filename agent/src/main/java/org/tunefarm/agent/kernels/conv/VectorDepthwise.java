package org.tunefarm.agent.kernels.conv;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import org.tunefarm.agent.kernels.VectorWidth;

/**
 * Depthwise convolution with the Vector API over one axis: {@code channels} (a vector of
 * neighbouring channels of one pixel times a vector of their filter taps) or {@code width} (a
 * vector of neighbouring output columns of one channel times a broadcast tap). Where the axis is
 * contiguous in memory (channels in NHWC, width in NCHW at stride 1) loads and stores are plain;
 * elsewhere they gather and scatter, which the tuner is left to measure. Positions whose taps
 * reach into the padding, and the tail of the axis, take the scalar path. In NHWC the channel
 * vectors of four neighbouring pixels are computed together, sharing each filter vector, and
 * with 3-tap filters at stride 1 the input vectors they share as well.
 */
final class VectorDepthwise implements ConvKernel {

    private static final VectorSpecies<Float> S = VectorWidth.floats();
    private static final int L = S.length();

    private final DepthwiseBlocks blocks;
    private final ConvGeometry g;
    private final float[] in, rsc;
    private final boolean overChannels;
    /** Offsets of the vector's lanes in the input and output; null where they are contiguous. */
    private final int[] inLanes, outLanes;
    /** Output columns whose every tap is inside the input row: [xLo, xHi). */
    private final int xLo, xHi;

    VectorDepthwise(DepthwiseBlocks blocks, float[] in, float[] rsc, boolean overChannels) {
        this.blocks = blocks;
        this.g = blocks.g();
        this.in = in;
        this.rsc = rsc;
        this.overChannels = overChannels;
        inLanes = lanes(overChannels ? g.inChannelStep() : g.stride() * g.inColumnStep());
        outLanes = lanes(overChannels ? g.outChannelStep() : g.outColumnStep());
        xLo = Math.min(g.q(), (g.pad() + g.stride() - 1) / g.stride());
        int last = g.w() - 1 + g.pad() - (g.s() - 1); // largest x * stride with the last tap inside
        xHi = Math.max(xLo, Math.min(g.q(), last < 0 ? 0 : last / g.stride() + 1));
    }

    private static int[] lanes(int step) {
        if (step == 1) return null;
        int[] map = new int[L];
        for (int i = 0; i < L; i++) map[i] = i * step;
        return map;
    }

    @Override public int units() {
        return blocks.units();
    }

    @Override public void compute(float[] out, int from, int to) {
        for (int u = from; u < to; u++) {
            int img = blocks.image(u), c0 = blocks.channelFrom(u), c1 = blocks.channelTo(u);
            int y0 = blocks.rowFrom(u), y1 = blocks.rowTo(u);
            if (overChannels) {
                for (int y = y0; y < y1; y++) pixelRow(out, img, c0, c1, y);
            } else {
                for (int ch = c0; ch < c1; ch++)
                    for (int y = y0; y < y1; y++) row(out, img, ch, y);
            }
        }
    }

    /**
     * Channels [c0, c1) of output row {@code y}. In NHWC, where the row's taps are all inside the
     * input, interior pixels go {@value #BLOCK} at a time ({@link #block}); the rest one by one.
     */
    private void pixelRow(float[] out, int img, int c0, int c1, int y) {
        int x = 0;
        if (inLanes == null && outLanes == null && g.inY(y, 0) >= 0 && g.inY(y, g.r() - 1) < g.h()) {
            for (; x < xLo; x++) pixel(out, img, c0, c1, y, x);
            if (g.s() == 3 && g.stride() == 1) {
                for (; x + BLOCK <= xHi; x += BLOCK) blockThreeTaps(out, img, c0, c1, y, x);
            } else {
                for (; x + BLOCK <= xHi; x += BLOCK) block(out, img, c0, c1, y, x);
            }
        }
        for (; x < g.q(); x++) pixel(out, img, c0, c1, y, x);
    }

    /** Output pixels blocked in registers: each tap's filter vector is loaded once for all of them. */
    static final int BLOCK = 4;

    /**
     * Channels [c0, c1) of the {@link #BLOCK} pixels from x on, all taps inside the input (NHWC):
     * four accumulators per channel vector, so each filter vector loaded feeds four FMAs and the
     * addresses are a row base plus constant steps, where {@link #pixel} loads the filter per FMA
     * and works out every address with its padding checks.
     */
    private void block(float[] out, int img, int c0, int c1, int y, int x) {
        int pixelStep = g.stride() * g.c(), c = c0;
        for (; c + L <= c1; c += L) {
            FloatVector acc0 = FloatVector.zero(S), acc1 = FloatVector.zero(S), acc2 = FloatVector.zero(S), acc3 = FloatVector.zero(S);
            for (int fr = 0; fr < g.r(); fr++) {
                int row = g.inIndex(img, c, g.inY(y, fr), g.inX(x, 0)), tap = fr * g.s() * g.c() + c;
                for (int fs = 0; fs < g.s(); fs++, row += g.c(), tap += g.c()) {
                    FloatVector w = FloatVector.fromArray(S, rsc, tap);
                    acc0 = FloatVector.fromArray(S, in, row).fma(w, acc0);
                    acc1 = FloatVector.fromArray(S, in, row + pixelStep).fma(w, acc1);
                    acc2 = FloatVector.fromArray(S, in, row + 2 * pixelStep).fma(w, acc2);
                    acc3 = FloatVector.fromArray(S, in, row + 3 * pixelStep).fma(w, acc3);
                }
            }
            storeBlock(out, g.outIndex(img, c, y, x), acc0, acc1, acc2, acc3);
        }
        blockTail(out, img, c, c1, y, x);
    }

    /**
     * {@link #block} for filters three taps wide at stride 1 (the 3x3 depthwise layers), where
     * neighbouring pixels share inputs: per filter row the six input vectors under the four pixels
     * and the three filter vectors are loaded once each for twelve FMAs (9 loads, not 15), summed
     * in {@link #block}'s order, so the answers are the same. 13 vector registers: C2 loads all
     * nine ahead of the FMAs. Splitting each sum in two (8 accumulators) measured 1.05x on
     * block1-dw and 0.95x on block3-dw against this, so it stays one chain per pixel.
     */
    private void blockThreeTaps(float[] out, int img, int c0, int c1, int y, int x) {
        int cs = g.c(), c = c0;
        for (; c + L <= c1; c += L) {
            FloatVector acc0 = FloatVector.zero(S), acc1 = FloatVector.zero(S), acc2 = FloatVector.zero(S), acc3 = FloatVector.zero(S);
            for (int fr = 0; fr < g.r(); fr++) {
                int row = g.inIndex(img, c, g.inY(y, fr), g.inX(x, 0)), tap = fr * 3 * cs + c;
                FloatVector w0 = FloatVector.fromArray(S, rsc, tap);
                FloatVector w1 = FloatVector.fromArray(S, rsc, tap + cs);
                FloatVector w2 = FloatVector.fromArray(S, rsc, tap + 2 * cs);
                FloatVector i0 = FloatVector.fromArray(S, in, row);
                FloatVector i1 = FloatVector.fromArray(S, in, row + cs);
                FloatVector i2 = FloatVector.fromArray(S, in, row + 2 * cs);
                FloatVector i3 = FloatVector.fromArray(S, in, row + 3 * cs);
                FloatVector i4 = FloatVector.fromArray(S, in, row + 4 * cs);
                FloatVector i5 = FloatVector.fromArray(S, in, row + 5 * cs);
                acc0 = i2.fma(w2, i1.fma(w1, i0.fma(w0, acc0)));
                acc1 = i3.fma(w2, i2.fma(w1, i1.fma(w0, acc1)));
                acc2 = i4.fma(w2, i3.fma(w1, i2.fma(w0, acc2)));
                acc3 = i5.fma(w2, i4.fma(w1, i3.fma(w0, acc3)));
            }
            storeBlock(out, g.outIndex(img, c, y, x), acc0, acc1, acc2, acc3);
        }
        blockTail(out, img, c, c1, y, x);
    }

    /** A block's four pixels' channel vectors, from {@code o}: neighbouring pixels lie C apart in NHWC. */
    private void storeBlock(float[] out, int o, FloatVector acc0, FloatVector acc1, FloatVector acc2, FloatVector acc3) {
        acc0.intoArray(out, o);
        acc1.intoArray(out, o + g.c());
        acc2.intoArray(out, o + 2 * g.c());
        acc3.intoArray(out, o + 3 * g.c());
    }

    /** The block's channels [c, c1) short of a vector, point by point. */
    private void blockTail(float[] out, int img, int c, int c1, int y, int x) {
        for (; c < c1; c++) {
            for (int j = 0; j < BLOCK; j++) out[g.outIndex(img, c, y, x + j)] = blocks.point(in, rsc, img, c, y, x + j);
        }
    }

    /** Channels [c0, c1) of one output pixel. */
    private void pixel(float[] out, int img, int c0, int c1, int y, int x) {
        int c = c0;
        for (; c + L <= c1; c += L) {
            FloatVector acc = FloatVector.zero(S);
            for (int fr = 0; fr < g.r(); fr++) {
                int iy = g.inY(y, fr);
                if (iy < 0 || iy >= g.h()) continue;
                for (int fs = 0; fs < g.s(); fs++) {
                    int ix = g.inX(x, fs);
                    if (ix < 0 || ix >= g.w()) continue;
                    acc = load(g.inIndex(img, c, iy, ix)).fma(FloatVector.fromArray(S, rsc, (fr * g.s() + fs) * g.c() + c), acc);
                }
            }
            store(acc, out, g.outIndex(img, c, y, x));
        }
        for (; c < c1; c++) out[g.outIndex(img, c, y, x)] = blocks.point(in, rsc, img, c, y, x);
    }

    /** One output row of one channel: vectors over the interior columns, scalar at the borders. */
    private void row(float[] out, int img, int ch, int y) {
        int x = 0;
        for (; x < xLo; x++) out[g.outIndex(img, ch, y, x)] = blocks.point(in, rsc, img, ch, y, x);
        for (; x + L <= xHi; x += L) {
            FloatVector acc = FloatVector.zero(S);
            for (int fr = 0; fr < g.r(); fr++) {
                int iy = g.inY(y, fr);
                if (iy < 0 || iy >= g.h()) continue;
                for (int fs = 0; fs < g.s(); fs++) {
                    FloatVector tap = FloatVector.broadcast(S, rsc[(fr * g.s() + fs) * g.c() + ch]);
                    acc = load(g.inIndex(img, ch, iy, g.inX(x, fs))).fma(tap, acc);
                }
            }
            store(acc, out, g.outIndex(img, ch, y, x));
        }
        for (; x < g.q(); x++) out[g.outIndex(img, ch, y, x)] = blocks.point(in, rsc, img, ch, y, x);
    }

    private FloatVector load(int at) {
        return inLanes == null ? FloatVector.fromArray(S, in, at) : FloatVector.fromArray(S, in, at, inLanes, 0);
    }

    private void store(FloatVector v, float[] out, int at) {
        if (outLanes == null) v.intoArray(out, at);
        else v.intoArray(out, at, outLanes, 0);
    }
}
