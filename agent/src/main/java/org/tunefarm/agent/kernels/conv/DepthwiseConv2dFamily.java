package org.tunefarm.agent.kernels.conv;

import java.util.Map;
import java.util.Set;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.KernelParams;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.kernel.DepthwiseConv2dSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;

/**
 * fp32 depthwise conv2d on the agent: plain loops ({@link ScalarDepthwise}) or the Vector API
 * over channels or width ({@link VectorDepthwise}), in blocks of channels x rows
 * ({@link DepthwiseBlocks}) shared among threads.
 */
public final class DepthwiseConv2dFamily implements KernelFamily {

    private static final Set<String> NAMES = Set.of("layout", "kernel", "vectorOver", "tileH", "tileC", "threads");

    private final DepthwiseConv2dSpec spec = new DepthwiseConv2dSpec();

    @Override public KernelSpec spec() { return spec; }

    /**
     * 2: NHWC vectors over channels compute four neighbouring pixels together (2.5x at 56 px).
     * 3: threads take the units in chunks from a shared counter rather than a fixed share each.
     * 4: in NHWC, filters three taps wide at stride 1 load each input vector of a filter row once
     * for the four pixels (block1-dw 1.40x, block3-dw 1.12x, block8-dw 1.12x on a Zen 3).
     */
    @Override public int implementation() { return 4; }

    @Override public Workload workload(KernelKey key, long seed) {
        spec.validate(key);
        return new DepthwiseWorkload(key, seed);
    }

    @Override public Candidate candidate(Workload workload, Map<String, Object> params) {
        if (!(workload instanceof DepthwiseWorkload w)) throw new IllegalArgumentException("not a depthwise_conv2d workload: " + workload.key().id());
        for (String k : params.keySet()) {
            if (!NAMES.contains(k)) throw new IllegalArgumentException("unknown depthwise_conv2d parameter '" + k + "'");
        }
        String layout = KernelParams.text(params, "layout"), kernel = KernelParams.text(params, "kernel"), over = KernelParams.text(params, "vectorOver");
        if (!layout.equals("NCHW") && !layout.equals("NHWC")) throw new IllegalArgumentException("layout: expected NCHW or NHWC, got " + layout);
        if (!kernel.equals("scalar") && !kernel.equals("vector")) throw new IllegalArgumentException("kernel: expected scalar or vector, got " + kernel);
        if (!over.equals("width") && !over.equals("channels")) throw new IllegalArgumentException("vectorOver: expected width or channels, got " + over);
        int tileH = KernelParams.integer(params, "tileH"), tileC = KernelParams.integer(params, "tileC"), threads = KernelParams.integer(params, "threads");
        KernelParams.positive("tileH", tileH);
        KernelParams.positive("tileC", tileC);
        KernelParams.positive("threads", threads);
        if (threads > ConvConfig.MAX_THREADS) throw new IllegalArgumentException("threads: at most " + ConvConfig.MAX_THREADS + ", got " + threads);
        ConvGeometry g = layout.equals("NHWC") ? w.nhwc : w.nchw;
        DepthwiseBlocks blocks = new DepthwiseBlocks(g, tileC, tileH);
        float[] rsc = DepthwiseBlocks.rsc(g, w.filter);
        float[] in = w.input(g);
        if (kernel.equals("scalar")) return new ConvCandidate(g.outputSize(), o -> w.maxError(o, g), threads, () -> new ScalarDepthwise(blocks, in, rsc));
        if (!VectorWidth.available()) throw new IllegalArgumentException(VectorWidth.UNAVAILABLE);
        boolean overChannels = over.equals("channels");
        return new ConvCandidate(g.outputSize(), o -> w.maxError(o, g), threads, () -> new VectorDepthwise(blocks, in, rsc, overChannels));
    }
}
