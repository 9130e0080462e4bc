package org.tunefarm.agent.kernels.conv;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;

/**
 * Input and filters drawn from a seed, the input kept in both layouts so a candidate reads its
 * own without converting inside the timed call, and the reference output from a plain direct
 * convolution accumulated in double. Candidates share these read-only.
 */
final class ConvWorkload implements KernelFamily.Workload {

    private static final double EPSILON = Math.ulp(1.0f);

    private final KernelKey key;
    final ConvGeometry nchw, nhwc;
    final float[] inputNchw, inputNhwc;
    /** KCRS. */
    final float[] filter;
    /** NKPQ. */
    private final double[] reference;
    private final double errorBound;

    ConvWorkload(KernelKey key, long seed) {
        this.key = key;
        nchw = ConvGeometry.of(key, false);
        nhwc = ConvGeometry.of(key, true);
        SplittableRandom random = new SplittableRandom(seed);
        inputNchw = fill(random, nchw.inputSize());
        filter = fill(random, nchw.k() * nchw.c() * nchw.r() * nchw.s());
        inputNhwc = toNhwc(inputNchw, nchw, nhwc);
        reference = new double[nchw.outputSize()];
        IntStream.range(0, nchw.n() * nchw.k()).parallel().forEach(this::referencePlane);
        double largest = largest(reference);
        // As for GEMM: reordered fp32 sums of C*R*S products stay within a few times
        // CRS * eps * max|out|; Winograd's transforms add a few more roundings per product, so
        // the margin is 16, still far below a dropped or doubled product (~0.1-1).
        errorBound = 16.0 * nchw.c() * nchw.r() * nchw.s() * EPSILON * largest;
    }

    @Override public KernelKey key() { return key; }

    @Override public double errorBound() { return errorBound; }

    float[] input(ConvGeometry g) {
        return g.nhwc() ? inputNhwc : inputNchw;
    }

    /** Largest absolute difference between an output in {@code g}'s layout and the reference. */
    double maxError(float[] out, ConvGeometry g) {
        return maxError(out, g, reference, nchw);
    }

    /** The input copied from NCHW into the NHWC layout, outside any timed call. */
    static float[] toNhwc(float[] inputNchw, ConvGeometry nchw, ConvGeometry nhwc) {
        float[] out = new float[inputNchw.length];
        for (int i = 0; i < nchw.n(); i++)
            for (int ch = 0; ch < nchw.c(); ch++)
                for (int y = 0; y < nchw.h(); y++)
                    for (int x = 0; x < nchw.w(); x++) out[nhwc.inIndex(i, ch, y, x)] = inputNchw[nchw.inIndex(i, ch, y, x)];
        return out;
    }

    /** The largest magnitude of a reference output, at least 1: the scale of the error bound. */
    static double largest(double[] reference) {
        double largest = 1;
        for (double v : reference) largest = Math.max(largest, Math.abs(v));
        return largest;
    }

    /**
     * Largest absolute difference between an output in {@code g}'s layout and an NCHW reference
     * (K output channels; K = C for depthwise); infinite when the output holds a NaN.
     */
    static double maxError(float[] out, ConvGeometry g, double[] reference, ConvGeometry nchw) {
        double worst = 0;
        for (int i = 0; i < g.n(); i++)
            for (int f = 0; f < g.k(); f++)
                for (int y = 0; y < g.p(); y++)
                    for (int x = 0; x < g.q(); x++) {
                        double d = Math.abs(out[g.outIndex(i, f, y, x)] - reference[nchw.outIndex(i, f, y, x)]);
                        if (Double.isNaN(d)) return Double.POSITIVE_INFINITY;
                        worst = Math.max(worst, d);
                    }
        return worst;
    }

    /** The textbook seven loops for one (image, filter) plane, in double. */
    private void referencePlane(int plane) {
        ConvGeometry g = nchw;
        int img = plane / g.k(), f = plane % g.k();
        for (int y = 0; y < g.p(); y++)
            for (int x = 0; x < g.q(); x++) {
                double sum = 0;
                for (int ch = 0; ch < g.c(); ch++)
                    for (int fr = 0; fr < g.r(); fr++)
                        for (int fs = 0; fs < g.s(); fs++) {
                            int iy = g.inY(y, fr), ix = g.inX(x, fs);
                            if (iy < 0 || iy >= g.h() || ix < 0 || ix >= g.w()) continue;
                            sum += (double) inputNchw[g.inIndex(img, ch, iy, ix)] * filter[g.filterIndex(f, ch, fr, fs)];
                        }
                reference[g.outIndex(img, f, y, x)] = sum;
            }
    }

    /** Values in [-1, 1) on a 2^-23 grid, exact in fp32. */
    static float[] fill(SplittableRandom random, int count) {
        float[] out = new float[count];
        for (int i = 0; i < count; i++) out[i] = (random.nextInt(1 << 24) - (1 << 23)) * 0x1p-23f;
        return out;
    }
}
