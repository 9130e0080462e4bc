package org.tunefarm.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.Conv2dSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/** Points of the conv2d space for the bench's quick search: where it starts, and short names. */
final class ConvPoint {

    private static final Conv2dSpec SPEC = new Conv2dSpec();

    private ConvPoint() {}

    static KernelKey key(Map<String, Integer> shape) {
        return new KernelKey("conv2d", shape, "fp32");
    }

    /** The vector points at {@code threads} threads: the scalar loops are the default, not a candidate. */
    static SearchSpace space(KernelKey key, int cores, int threads) {
        return SPEC.space(key, cores).narrow(Map.of("kernel", List.of("vector"), "threads", List.of(threads)), List.of());
    }

    /**
     * The layouts and algorithms that ConvProbe found fast on MobileNetV2 layers (NHWC direct with
     * 6x2 / 4x3 / 8x1 register tiles, im2col on the 6x2 / 8x2 packed GEMM tiles), with tiles
     * clamped to this shape's domains; the random sample then looks around them.
     */
    static List<Map<String, Object>> startingPoints(SearchSpace space, KernelKey key, int cores, int threads) {
        List<Parameter> params = SPEC.parameters(key, cores);
        List<Map<String, Object>> picks = new ArrayList<>();
        picks.add(point(params, "NHWC", "direct", 6, 2, 64, 1024, 1024, threads));
        picks.add(point(params, "NHWC", "direct", 4, 3, 64, 1024, 1024, threads));
        picks.add(point(params, "NCHW", "direct", 8, 1, 64, 1024, 1024, threads));
        picks.add(point(params, "NHWC", "im2col", 8, 2, 256, 1024, 1024, threads));
        picks.add(point(params, "NCHW", "im2col", 6, 2, 128, 1024, 1024, threads));
        List<Map<String, Object>> valid = new ArrayList<>();
        for (Map<String, Object> p : picks) {
            try {
                if (space.isValid(space.index(p))) valid.add(space.config(space.index(p)));
            } catch (IllegalArgumentException notInDomain) {
                // a value this shape's space does not have
            }
        }
        return valid;
    }

    private static Map<String, Object> point(List<Parameter> params, String layout, String algo, int rows, int vecs,
                                             int tileP, int tileK, int tileC, int threads) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("layout", layout);
        m.put("algo", algo);
        m.put("kernel", "vector");
        m.put("microRows", rows);
        m.put("microVecs", vecs);
        m.put("tileP", clamp(params, "tileP", tileP));
        m.put("tileK", clamp(params, "tileK", tileK));
        m.put("tileC", clamp(params, "tileC", tileC));
        m.put("threads", threads);
        return m;
    }

    /** The largest value of the domain not above {@code wanted} (else its smallest): a small layer's domains stop early. */
    private static int clamp(List<Parameter> params, String name, int wanted) {
        Parameter p = params.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        int best = ((Number) p.values().get(0)).intValue();
        for (Object v : p.values()) {
            if (((Number) v).intValue() <= wanted) best = ((Number) v).intValue(); // domains ascend
        }
        return best;
    }

    /** A short name for tables: "NHWC im2col 8x2 256/96/16 t1". */
    static String name(Map<String, Object> p) {
        if ("scalar".equals(p.get("kernel"))) return p.get("layout") + " scalar direct t" + p.get("threads");
        return p.get("layout") + " " + p.get("algo") + " " + p.get("microRows") + "x" + p.get("microVecs") + " "
                + p.get("tileP") + "/" + p.get("tileK") + "/" + p.get("tileC") + " t" + p.get("threads");
    }

    /** "conv1 3->32 3x3/2 @224". */
    static String describe(String layer, KernelKey key) {
        return layer + " " + key.dim("C") + "->" + key.dim("K") + " " + key.dim("R") + "x" + key.dim("S")
                + (key.dim("stride") == 1 ? "" : "/" + key.dim("stride")) + " @" + key.dim("H");
    }
}
