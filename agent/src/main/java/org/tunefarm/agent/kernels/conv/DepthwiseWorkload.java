package org.tunefarm.agent.kernels.conv;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;

/**
 * Input in both layouts, C x R x S filters, and the reference output from plain loops in double.
 */
final class DepthwiseWorkload implements KernelFamily.Workload {

    private static final double EPSILON = Math.ulp(1.0f);

    private final KernelKey key;
    final ConvGeometry nchw, nhwc;
    final float[] inputNchw, inputNhwc;
    /** C x R x S. */
    final float[] filter;
    private final double[] reference;
    private final double errorBound;

    DepthwiseWorkload(KernelKey key, long seed) {
        this.key = key;
        nchw = ConvGeometry.depthwise(key, false);
        nhwc = ConvGeometry.depthwise(key, true);
        SplittableRandom random = new SplittableRandom(seed);
        inputNchw = ConvWorkload.fill(random, nchw.inputSize());
        filter = ConvWorkload.fill(random, nchw.c() * nchw.r() * nchw.s());
        inputNhwc = ConvWorkload.toNhwc(inputNchw, nchw, nhwc);
        reference = new double[nchw.outputSize()];
        IntStream.range(0, nchw.n() * nchw.c()).parallel().forEach(this::referencePlane);
        double largest = ConvWorkload.largest(reference);
        // R*S products per output: reordering errs by a few R*S*eps*max|out|; a margin of 4.
        errorBound = 4.0 * nchw.r() * nchw.s() * EPSILON * largest;
    }

    @Override public KernelKey key() { return key; }

    @Override public double errorBound() { return errorBound; }

    float[] input(ConvGeometry g) {
        return g.nhwc() ? inputNhwc : inputNchw;
    }

    double maxError(float[] out, ConvGeometry g) {
        return ConvWorkload.maxError(out, g, reference, nchw);
    }

    private void referencePlane(int plane) {
        ConvGeometry g = nchw;
        int img = plane / g.c(), ch = plane % g.c();
        for (int y = 0; y < g.p(); y++)
            for (int x = 0; x < g.q(); x++) {
                double sum = 0;
                for (int fr = 0; fr < g.r(); fr++)
                    for (int fs = 0; fs < g.s(); fs++) {
                        int iy = g.inY(y, fr), ix = g.inX(x, fs);
                        if (iy < 0 || iy >= g.h() || ix < 0 || ix >= g.w()) continue;
                        sum += (double) inputNchw[g.inIndex(img, ch, iy, ix)] * filter[(ch * g.r() + fr) * g.s() + fs];
                    }
                reference[g.outIndex(img, ch, y, x)] = sum;
            }
    }
}
