package org.tunefarm.agent.kernels.conv;

import java.util.Arrays;
import org.tunefarm.agent.kernels.gemm.MicroKernel;
import org.tunefarm.agent.kernels.gemm.TileKernels;

/**
 * The direct convolution on the GEMM family's register-blocked micro-kernels, without
 * materialising im2col: a register tile holds {@code microRows} neighbouring output positions of
 * one row times {@code microVecs} vectors of output channels, and each filter tap (fr, fs) is one
 * micro-kernel call reducing over the input channels. The tile's A operand is the input read in
 * place (row stride = stride x pixel step, column stride = channel step, so NCHW and NHWC share
 * the code), except where a tap reaches into the padding: then the rows are copied with zeros.
 * In NHWC without dilation a filter row's S taps are one run: their inputs and the packed
 * filter's rows both lie contiguous; where tileC takes a whole run, every filter row inside the
 * image is one call ({@link MicroKernel#runSegments}), R x S x C steps between loads of C (the
 * 3-channel stem's 27 rather than three calls of 9).
 *
 * <p>Loops: output rows are the units; inside a row, blocks of {@code tileK} channels, then
 * {@code tileP} positions (so their input stays in L1 across channel vectors), then micro-tiles;
 * {@code tileC} slices the reduction. NHWC full tiles accumulate straight into the output;
 * others go through a scratch tile, which for NCHW is also the transpose to channel planes.
 */
final class DirectConv implements ConvKernel {

    private final ConvGeometry g;
    private final float[] in, packed;
    private final int rows, width, tileP, tileK, tileC;
    /** The tile's kernel, and narrower ones for the last output channels where they are fewer than a tile. */
    private final TileKernels kernels;
    private final float[] aEdge, tile;
    /** NHWC without dilation: a filter row's taps read one contiguous run of S x C inputs. */
    private final boolean rowRuns;

    DirectConv(ConvGeometry g, float[] in, float[] packed, ConvConfig config) {
        this.g = g;
        this.in = in;
        this.packed = packed;
        rows = config.microRows();
        width = config.microVecs() * MicroKernel.lanes();
        tileP = Math.max(1, config.tileP() / rows) * rows;
        tileK = Math.max(1, config.tileK() / width) * width;
        tileC = config.tileC();
        kernels = new TileKernels(rows, config.microVecs());
        aEdge = new float[rows * g.c()];
        tile = new float[rows * width];
        rowRuns = g.nhwc() && g.dilation() == 1;
    }

    /**
     * KCRS to panels [K / width][R][S][C][width], zero past K: each tap's B operand is one
     * contiguous C x width panel, the layout the micro-kernel streams.
     */
    static float[] packFilter(ConvGeometry g, float[] kcrs, int microVecs) {
        int width = microVecs * MicroKernel.lanes();
        int blocks = (g.k() + width - 1) / width;
        float[] out = new float[blocks * g.r() * g.s() * g.c() * width];
        for (int f = 0; f < g.k(); f++)
            for (int ch = 0; ch < g.c(); ch++)
                for (int fr = 0; fr < g.r(); fr++)
                    for (int fs = 0; fs < g.s(); fs++) {
                        int at = ((((f / width) * g.r() + fr) * g.s() + fs) * g.c() + ch) * width + f % width;
                        out[at] = kcrs[g.filterIndex(f, ch, fr, fs)];
                    }
        return out;
    }

    @Override public int units() {
        return g.n() * g.p();
    }

    @Override public void compute(float[] out, int from, int to) {
        for (int u = from; u < to; u++) row(out, u / g.p(), u % g.p());
    }

    private void row(float[] out, int img, int y) {
        for (int kc0 = 0; kc0 < g.k(); kc0 += tileK) {
            int kc1 = Math.min(g.k(), kc0 + tileK);
            for (int q0 = 0; q0 < g.q(); q0 += tileP) {
                int q1 = Math.min(g.q(), q0 + tileP);
                for (int k0 = kc0; k0 < kc1; k0 += width) {
                    for (int x = q0; x < q1; x += rows) microTile(out, img, y, x, Math.min(rows, q1 - x), k0);
                }
            }
        }
    }

    private void microTile(float[] out, int img, int y, int x, int real, int k0) {
        int cols = Math.min(width, g.k() - k0);
        MicroKernel tileKernel = kernels.forColumns(cols);
        int written = kernels.columnsWritten(cols);
        boolean inPlace = g.nhwc() && real == rows && cols == written;
        float[] dst = inPlace ? out : tile;
        int ci = inPlace ? g.outIndex(img, k0, y, x) : 0;
        int ldc = inPlace ? g.k() : width;
        int kb = k0 / width;
        boolean first = true;
        int run = g.s() * g.c();
        boolean inRow = rowRuns && g.inX(x, 0) >= 0 && g.inX(x + rows - 1, g.s() - 1) < g.w();
        if (inRow && tileC >= run) {
            // Every filter row's run in one call, the accumulators held across rows: the rows
            // inside the image are consecutive, and so are their packed filter rows.
            int frLo = 0, frHi = g.r() - 1;
            while (frLo <= frHi && g.inY(y, frLo) < 0) frLo++;
            while (frHi >= frLo && g.inY(y, frHi) >= g.h()) frHi--;
            if (frLo <= frHi) {
                int ai = g.inIndex(img, 0, g.inY(y, frLo), g.inX(x, 0)), b = (kb * g.r() + frLo) * run * width;
                tileKernel.runSegments(frHi - frLo + 1, g.w() * g.c(), run, in, ai, g.stride() * g.c(), 1, packed, b, width, dst, ci, ldc, false);
                first = false;
            }
        } else for (int fr = 0; fr < g.r(); fr++) {
            int iy = g.inY(y, fr);
            if (iy < 0 || iy >= g.h()) continue;
            if (inRow) {
                // The filter row's taps and channels lie contiguous in NHWC (fs * C + ch), in the
                // input and in the packed filter alike: one reduction of S * C, not S of C.
                int ai = g.inIndex(img, 0, iy, g.inX(x, 0)), b = (kb * g.r() + fr) * run * width;
                for (int c0 = 0; c0 < run; c0 += tileC) {
                    tileKernel.run(Math.min(tileC, run - c0), in, ai + c0, g.stride() * g.c(), 1, packed, b + c0 * width, width, dst, ci, ldc, !first);
                    first = false;
                }
                continue;
            }
            for (int fs = 0; fs < g.s(); fs++) {
                int ix0 = g.inX(x, fs), ixLast = ix0 + (rows - 1) * g.stride();
                float[] a;
                int ai, aRs, aCs;
                if (ix0 >= 0 && ixLast < g.w()) {
                    a = in;
                    ai = g.inIndex(img, 0, iy, ix0);
                    aRs = g.stride() * g.inColumnStep();
                    aCs = g.inChannelStep();
                } else {
                    packEdge(img, iy, ix0, real);
                    a = aEdge;
                    ai = 0;
                    aRs = 1;
                    aCs = rows;
                }
                int b = ((kb * g.r() + fr) * g.s() + fs) * g.c() * width;
                for (int c0 = 0; c0 < g.c(); c0 += tileC) {
                    int kc = Math.min(tileC, g.c() - c0);
                    tileKernel.run(kc, a, ai + c0 * aCs, aRs, aCs, packed, b + c0 * width, width, dst, ci, ldc, !first);
                    first = false;
                }
            }
        }
        if (first) { // every tap fell in the padding (possible with dilation): the outputs are zero
            for (int j = 0; j < rows; j++) Arrays.fill(dst, ci + j * ldc, ci + j * ldc + written, 0f);
        }
        if (!inPlace) store(out, img, y, x, real, k0, cols);
    }

    /** The tile's input rows at one tap as a [C][rows] panel, zero where a row reads padding. */
    private void packEdge(int img, int iy, int ix0, int real) {
        int step = g.inChannelStep();
        for (int j = 0; j < rows; j++) {
            int ix = ix0 + j * g.stride();
            if (j < real && ix >= 0 && ix < g.w()) {
                int i = g.inIndex(img, 0, iy, ix);
                for (int ch = 0; ch < g.c(); ch++) aEdge[ch * rows + j] = in[i + ch * step];
            } else {
                for (int ch = 0; ch < g.c(); ch++) aEdge[ch * rows + j] = 0f;
            }
        }
    }

    private void store(float[] out, int img, int y, int x, int real, int k0, int cols) {
        if (g.nhwc()) {
            for (int j = 0; j < real; j++) System.arraycopy(tile, j * width, out, g.outIndex(img, k0, y, x + j), cols);
            return;
        }
        for (int f = 0; f < cols; f++) {
            int o = g.outIndex(img, k0 + f, y, x);
            for (int j = 0; j < real; j++) out[o + j] = tile[j * width + f];
        }
    }
}
