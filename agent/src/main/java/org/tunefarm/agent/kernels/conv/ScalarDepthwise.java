package org.tunefarm.agent.kernels.conv;

/** Depthwise convolution as plain loops, in the order each layout stores its output. */
final class ScalarDepthwise implements ConvKernel {

    private final DepthwiseBlocks blocks;
    private final ConvGeometry g;
    private final float[] in, rsc;

    ScalarDepthwise(DepthwiseBlocks blocks, float[] in, float[] rsc) {
        this.blocks = blocks;
        this.g = blocks.g();
        this.in = in;
        this.rsc = rsc;
    }

    @Override public int units() {
        return blocks.units();
    }

    @Override public void compute(float[] out, int from, int to) {
        for (int u = from; u < to; u++) {
            int img = blocks.image(u), c0 = blocks.channelFrom(u), c1 = blocks.channelTo(u);
            int y0 = blocks.rowFrom(u), y1 = blocks.rowTo(u);
            if (g.nhwc()) {
                for (int y = y0; y < y1; y++)
                    for (int x = 0; x < g.q(); x++)
                        for (int ch = c0; ch < c1; ch++) out[g.outIndex(img, ch, y, x)] = blocks.point(in, rsc, img, ch, y, x);
            } else {
                for (int ch = c0; ch < c1; ch++)
                    for (int y = y0; y < y1; y++)
                        for (int x = 0; x < g.q(); x++) out[g.outIndex(img, ch, y, x)] = blocks.point(in, rsc, img, ch, y, x);
            }
        }
    }
}
