package org.tunefarm.agent.kernels.conv;

import org.tunefarm.agent.kernels.gemm.PackedGemm;

/**
 * A pointwise convolution (1x1 filter, stride 1, no padding) is a GEMM over the tensors as they
 * lie, so it runs on the GEMM family's packed micro-kernels ({@link PackedGemm}) with no im2col
 * copy and no transposed store. In NHWC the output (N·P·Q x K) is the input (N·H·W x C) times the
 * filters as C x K (RSCK); in NCHW each image's output (K x P·Q) is the filters as K x C (KCRS)
 * times that image's C x H·W input, the form im2col + BLAS takes too, without the copy.
 *
 * <p>Units are one micro-tile's output positions (its rows in NHWC, its width in NCHW, within one
 * image): the GEMM's M (NHWC) or N (NCHW). A thread's consecutive units in one image are one GEMM
 * call, whose own blocking ({@code tileP}, {@code tileK} and {@code tileC} as the GEMM's tiles
 * over positions, filters and input channels) keeps the packed panels in cache; units as small as
 * a micro-tile let two threads share a 7 x 7 layer evenly, where whole tileP blocks left one
 * thread idle. In NHWC the filters (the GEMM's B) are packed once, when the layer is built, and
 * the input (A) is read in place unless enough filters read each packed panel to pay for packing
 * it ({@link PackedGemm#packsA}): a layer of 24 filters ran 1.5x faster so. In NCHW the input is
 * B, packed on every call or read in place as the point says ({@code packInput}).
 */
final class GemmConv implements ConvKernel {

    private final ConvGeometry g;
    private final PackedGemm gemm;
    private final int positions, unit;
    /** Units per GEMM: the whole tensor's in NHWC (positions run on across images), each image's in NCHW. */
    private final int unitsPerMatrix;

    /** @param filterMatrix the filters as the GEMM's operand: C x K (RSCK) for NHWC, K x C (KCRS) for NCHW */
    GemmConv(ConvGeometry g, float[] in, float[] filterMatrix, ConvConfig config) {
        this.g = g;
        positions = g.p() * g.q();
        int rows = config.microRows(), width = config.microVecs() * PackedGemm.lanes();
        if (g.nhwc()) {
            int m = g.n() * positions;
            unit = rows;
            unitsPerMatrix = (m + unit - 1) / unit;
            gemm = new PackedGemm(in, filterMatrix, m, g.k(), g.c(), config.tileP(), config.tileK(), config.tileC(),
                    rows, config.microVecs(), PackedGemm.packsA(g.k(), config.microVecs()), true).packFiltersOnce();
        } else {
            unit = width;
            unitsPerMatrix = (positions + unit - 1) / unit;
            gemm = new PackedGemm(filterMatrix, in, g.k(), positions, g.c(), config.tileK(), config.tileP(), config.tileC(),
                    rows, config.microVecs(), true, config.packInput());
        }
    }

    /** The filters as the GEMM operand {@code nhwc} multiplies by. */
    static float[] filterMatrix(ConvGeometry g, float[] kcrs) {
        return g.nhwc() ? ScalarConv.rsck(g, kcrs) : kcrs;
    }

    @Override public int units() {
        return g.nhwc() ? unitsPerMatrix : g.n() * unitsPerMatrix;
    }

    @Override public void compute(float[] out, int from, int to) {
        if (g.nhwc()) {
            gemm.multiply(out, 0, 0, from * unit, Math.min(g.n() * positions, to * unit), 0, g.k());
            return;
        }
        for (int u = from; u < to; ) {
            int img = u / unitsPerMatrix, last = Math.min(to, (img + 1) * unitsPerMatrix);
            int n0 = (u - img * unitsPerMatrix) * unit, n1 = Math.min(positions, (last - img * unitsPerMatrix) * unit);
            gemm.multiply(out, img * g.k(), img * g.c(), 0, g.k(), n0, n1);
            u = last;
        }
    }
}
