package org.tunefarm.agent.kernels.conv;

import java.util.Map;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.kernel.Conv2dSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;

/**
 * fp32 conv2d on the agent: plain loops ({@link ScalarConv}), the direct algorithm on the GEMM
 * family's register-blocked micro-kernels ({@link DirectConv}), im2col into the packed GEMM
 * ({@link Im2colConv}), Winograd F(2x2, 3x3) ({@link WinogradConv}) and, for pointwise layers,
 * one GEMM over the tensors in place ({@link GemmConv}). Filters are repacked
 * once per candidate, outside the timed call, as an inference runtime does once per model.
 */
public final class Conv2dFamily implements KernelFamily {

    private final Conv2dSpec spec = new Conv2dSpec();

    @Override public KernelSpec spec() { return spec; }

    /**
     * 2: pointwise layers as one GEMM ({@code algo: gemm}); NHWC direct and im2col read a filter
     * row's taps as one run; the 6x2 micro-kernel's strided walk is its own method (2.4x on the
     * stem's direct loop). 3: the 3x3 micro-tile (microRows 3) joins the space, so every index
     * moves, and AVX2's space drops the tiles that spill (8x2, 6x2, 4x3, 8x1). 4: the NHWC direct
     * loop reduces every filter row inside the image in one micro-kernel call (the stem's 27 steps
     * rather than 3 calls of 9: about 1.4x on AVX2), every micro-tile has a packed walk for the
     * GEMM under pointwise, im2col and Winograd, and threads take the units in chunks from a
     * shared counter rather than a fixed share each. 5: the micro-kernels count one induction
     * variable (gemm 7), and the pointwise GEMM in NHWC and the im2col and Winograd GEMMs read
     * their A in place where too few filters read a packed panel to pay for packing it
     * ({@code PackedGemm.packsA}). 6: their GEMMs pack B's blocks row by row across the panels (gemm 8).
     * 7: four rows of a panel at a time, panel after panel (gemm 10). 8: the micro-kernels store
     * their tile inline (gemm 11). 9: their A panels are packed by lane shuffles (gemm 12). 10: the
     * NCHW pointwise GEMM reads its input in place unless the point packs it ({@code packInput}, new
     * in the space, so every index moves).
     */
    @Override public int implementation() { return 10; }

    @Override public Workload workload(KernelKey key, long seed) {
        spec.validate(key);
        return new ConvWorkload(key, seed);
    }

    @Override public Candidate candidate(Workload workload, Map<String, Object> params) {
        if (!(workload instanceof ConvWorkload w)) throw new IllegalArgumentException("not a conv2d workload: " + workload.key().id());
        ConvConfig config = ConvConfig.of(params);
        ConvGeometry g = config.nhwc() ? w.nhwc : w.nchw;
        if (!config.vector()) return new ConvCandidate(g.outputSize(), o -> w.maxError(o, g), config.threads(), () -> new ScalarConv(g, w.input(g), w.filter));
        if (!VectorWidth.available()) throw new IllegalArgumentException(VectorWidth.UNAVAILABLE);
        return switch (config.algo()) {
            case "direct" -> {
                float[] packed = DirectConv.packFilter(g, w.filter, config.microVecs());
                yield new ConvCandidate(g.outputSize(), o -> w.maxError(o, g), config.threads(), () -> new DirectConv(g, w.input(g), packed, config));
            }
            case "im2col" -> {
                float[] matrix = Im2colConv.filterMatrix(g, w.filter);
                yield new ConvCandidate(g.outputSize(), o -> w.maxError(o, g), config.threads(), () -> new Im2colConv(g, w.input(g), matrix, config));
            }
            case "gemm" -> {
                if (!Conv2dSpec.gemmFits(w.key())) throw new IllegalArgumentException("algo: gemm needs a pointwise layer: R = S = 1, stride 1, pad 0");
                float[] matrix = GemmConv.filterMatrix(g, w.filter);
                yield new ConvCandidate(g.outputSize(), o -> w.maxError(o, g), config.threads(), () -> new GemmConv(g, w.input(g), matrix, config));
            }
            default -> {
                if (!Conv2dSpec.winogradFits(w.key())) throw new IllegalArgumentException("algo: winograd F(2x2, 3x3) needs R = S = 3, stride 1, dilation 1");
                float[][] transformed = WinogradConv.transformFilter(g, w.filter);
                yield new ConvCandidate(g.outputSize(), o -> w.maxError(o, g), config.threads(), () -> new WinogradConv(g, w.input(g), transformed, config));
            }
        };
    }
}
