package org.tunefarm.bench;

import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.DepthwiseConv2dSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.space.SearchSpace;

/** Points of the depthwise_conv2d space for the bench's quick search, and short names. */
final class DepthwisePoint {

    private static final DepthwiseConv2dSpec SPEC = new DepthwiseConv2dSpec();

    private DepthwisePoint() {}

    static KernelKey key(Map<String, Integer> shape) {
        return new KernelKey("depthwise_conv2d", shape, "fp32");
    }

    /** The vector points at {@code threads} threads (a few hundred: the quick search samples them). */
    static SearchSpace space(KernelKey key, int cores, int threads) {
        return SPEC.space(key, cores).narrow(Map.of("kernel", List.of("vector"), "threads", List.of(threads)), List.of());
    }

    /** The family's seeds at {@code threads} threads that are valid in the space; the random sample then looks around them. */
    static List<Map<String, Object>> startingPoints(SearchSpace space, KernelKey key, int threads) {
        return TunedSearch.validIn(space, SPEC.seeds(key, threads));
    }

    /** "NHWC channels 4/64 t1". */
    static String name(Map<String, Object> p) {
        if ("scalar".equals(p.get("kernel"))) return p.get("layout") + " scalar t" + p.get("threads");
        return p.get("layout") + " " + p.get("vectorOver") + " " + p.get("tileH") + "/" + p.get("tileC") + " t" + p.get("threads");
    }

    /** "block2-dw 96ch 3x3/2 @112". */
    static String describe(String layer, KernelKey key) {
        return layer + " " + key.dim("C") + "ch " + key.dim("R") + "x" + key.dim("S")
                + (key.dim("stride") == 1 ? "" : "/" + key.dim("stride")) + " @" + key.dim("H");
    }
}
