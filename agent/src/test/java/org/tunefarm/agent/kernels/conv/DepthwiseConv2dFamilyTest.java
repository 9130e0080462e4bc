package org.tunefarm.agent.kernels.conv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.DepthwiseConv2dSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.space.SearchSpace;

class DepthwiseConv2dFamilyTest {

    private static final DepthwiseConv2dFamily FAMILY = new DepthwiseConv2dFamily();
    private static final DepthwiseConv2dSpec SPEC = new DepthwiseConv2dSpec();

    static KernelKey depthwise(int n, int c, int h, int w, int stride, int pad) {
        return new KernelKey("depthwise_conv2d", Map.of("N", n, "C", c, "H", h, "W", w, "R", 3, "S", 3, "stride", stride, "pad", pad), "fp32");
    }

    /** Ragged against 8 and 16 lanes, stride 1 and 2, pad 1 and 0, batch 8, a row narrower than a vector. */
    static final List<KernelKey> SHAPES = List.of(
            depthwise(1, 37, 23, 29, 1, 1),
            depthwise(1, 19, 22, 41, 2, 1),
            depthwise(8, 5, 9, 7, 1, 1),
            depthwise(2, 17, 40, 35, 2, 0),
            depthwise(1, 3, 3, 3, 1, 1));

    @Test void everyVariantMatchesTheReference() {
        for (KernelKey key : SHAPES) {
            DepthwiseWorkload w = (DepthwiseWorkload) FAMILY.workload(key, 23);
            for (String layout : List.of("NCHW", "NHWC"))
                for (String kernel : List.of("scalar", "vector"))
                    for (String over : List.of("width", "channels"))
                        for (int[] tiles : new int[][] {{1, 8}, {4, 16}, {256, 2048}})
                            for (int threads = 1; threads <= 3; threads += 2)
                                assertCorrect(w, config(layout, kernel, over, tiles[0], tiles[1], threads));
        }
    }

    @Test void defaultConfigIsAValidPointOfTheSpace() {
        for (KernelKey key : SHAPES) {
            SearchSpace space = SPEC.space(key, 2);
            Map<String, Object> d = SPEC.defaultConfig(key, 2);
            assertTrue(space.isValid(space.index(d)), key.id() + " " + d);
            assertEquals("scalar", d.get("kernel"));
        }
    }

    @Test void aCorruptedOutputIsCaught() {
        DepthwiseWorkload w = (DepthwiseWorkload) FAMILY.workload(SHAPES.get(0), 2);
        try (ConvCandidate c = (ConvCandidate) FAMILY.candidate(w, config("NHWC", "vector", "channels", 4, 16, 1))) {
            c.run();
            assertTrue(c.maxError() <= w.errorBound());
            c.output()[3] -= 0.01f;
            assertTrue(c.maxError() > w.errorBound(), "bound " + w.errorBound());
        }
    }

    static Map<String, Object> config(String layout, String kernel, String over, int tileH, int tileC, int threads) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("layout", layout);
        m.put("kernel", kernel);
        m.put("vectorOver", over);
        m.put("tileH", tileH);
        m.put("tileC", tileC);
        m.put("threads", threads);
        return m;
    }

    private static void assertCorrect(DepthwiseWorkload w, Map<String, Object> cfg) {
        try (KernelFamily.Candidate c = FAMILY.candidate(w, cfg)) {
            c.run();
            double err = c.maxError();
            assertTrue(err <= w.errorBound(), w.key().id() + " " + cfg + ": error " + err + " > " + w.errorBound());
        }
    }
}
