package org.tunefarm.agent.kernels.conv;

import org.tunefarm.kernel.Conv2dSpec;
import org.tunefarm.kernel.DepthwiseConv2dSpec;
import org.tunefarm.kernel.KernelKey;

/**
 * A conv2d shape and the memory order of its tensors: where input element (image, channel, y, x)
 * and output element (image, filter, y, x) live in NCHW or NHWC arrays. Filters are always
 * handed over as KCRS; each algorithm repacks them once into the order its loops read.
 */
record ConvGeometry(int n, int c, int h, int w, int k, int r, int s, int stride, int pad, int dilation,
                    int p, int q, boolean nhwc) {

    static ConvGeometry of(KernelKey key, boolean nhwc) {
        return new ConvGeometry(key.dim("N"), key.dim("C"), key.dim("H"), key.dim("W"), key.dim("K"),
                key.dim("R"), key.dim("S"), key.dim("stride"), key.dim("pad"), key.dim("dilation"),
                Conv2dSpec.outHeight(key), Conv2dSpec.outWidth(key), nhwc);
    }

    /** A depthwise shape: one filter per channel (K = C), no dilation; filters are C x R x S. */
    static ConvGeometry depthwise(KernelKey key, boolean nhwc) {
        return new ConvGeometry(key.dim("N"), key.dim("C"), key.dim("H"), key.dim("W"), key.dim("C"),
                key.dim("R"), key.dim("S"), key.dim("stride"), key.dim("pad"), 1,
                DepthwiseConv2dSpec.outHeight(key), DepthwiseConv2dSpec.outWidth(key), nhwc);
    }

    int inIndex(int img, int ch, int y, int x) {
        return nhwc ? ((img * h + y) * w + x) * c + ch : ((img * c + ch) * h + y) * w + x;
    }

    int outIndex(int img, int f, int y, int x) {
        return nhwc ? ((img * p + y) * q + x) * k + f : ((img * k + f) * p + y) * q + x;
    }

    /** Distance between neighbouring input channels of one pixel. */
    int inChannelStep() { return nhwc ? 1 : h * w; }

    /** Distance between horizontally neighbouring input pixels of one channel. */
    int inColumnStep() { return nhwc ? c : 1; }

    /** Distance between horizontally neighbouring output pixels of one channel. */
    int outColumnStep() { return nhwc ? k : 1; }

    /** Distance between neighbouring output channels of one pixel. */
    int outChannelStep() { return nhwc ? 1 : p * q; }

    int inputSize() { return n * c * h * w; }

    int outputSize() { return n * k * p * q; }

    /** Input row read by output row {@code y} at filter row {@code fr}; may fall in the padding. */
    int inY(int y, int fr) { return y * stride - pad + fr * dilation; }

    /** Input column read by output column {@code x} at filter column {@code fs}; may fall in the padding. */
    int inX(int x, int fs) { return x * stride - pad + fs * dilation; }

    /** The filter in KCRS order at (filter, channel, fr, fs). */
    int filterIndex(int f, int ch, int fr, int fs) {
        return ((f * c + ch) * r + fr) * s + fs;
    }
}
