package org.tunefarm.agent.kernels.conv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.gemm.PackedGemm;
import org.tunefarm.kernel.Conv2dSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.space.SearchSpace;

class Conv2dFamilyTest {

    private static final Conv2dFamily FAMILY = new Conv2dFamily();
    private static final Conv2dSpec SPEC = new Conv2dSpec();

    static KernelKey conv(int n, int c, int h, int w, int k, int r, int s, int stride, int pad, int dilation) {
        Map<String, Integer> shape = new LinkedHashMap<>();
        shape.put("N", n); shape.put("C", c); shape.put("H", h); shape.put("W", w); shape.put("K", k);
        shape.put("R", r); shape.put("S", s); shape.put("stride", stride); shape.put("pad", pad); shape.put("dilation", dilation);
        return new KernelKey("conv2d", shape, "fp32");
    }

    /**
     * Filters enough for the pointwise, im2col and Winograd GEMMs to pack their A at every tile and
     * width (up to 4 vectors of 16 lanes), which they read in place below ({@link PackedGemm#packsA}).
     */
    static final int MANY_FILTERS = 16 * 4 * 16 + 3;

    /** Small odd shapes: ragged against every micro-tile and vector width, with padding, stride, dilation and batch 8. */
    static final List<KernelKey> SHAPES = List.of(
            conv(1, 3, 11, 13, 5, 3, 3, 1, 1, 1),     // 3x3 same padding, K below one vector
            conv(1, 7, 9, 10, 19, 3, 3, 2, 1, 1),     // stride 2
            conv(1, 5, 12, 11, 17, 3, 3, 1, 2, 2),    // dilation 2
            conv(8, 4, 7, 6, 9, 3, 3, 1, 0, 1),       // batch 8, no padding
            conv(2, 13, 5, 7, 33, 1, 1, 1, 0, 1),     // pointwise, batch 2: one GEMM per image in NCHW
            conv(3, 24, 9, 9, 40, 1, 1, 1, 0, 1),     // pointwise, batch 3, positions ragged against every block
            conv(1, 6, 8, 8, 7, 1, 1, 2, 0, 1),       // 1x1 at stride 2: not one GEMM
            conv(1, 3, 15, 17, 6, 5, 3, 2, 2, 1),     // rectangular filter, stride 2
            conv(1, 2, 3, 3, 4, 3, 3, 1, 1, 1),       // a single Winograd tile, odd output
            conv(1, 3, 3, 4, MANY_FILTERS, 1, 1, 1, 0, 1),  // enough filters that the GEMMs pack their A
            conv(1, 2, 4, 3, MANY_FILTERS, 3, 3, 1, 1, 1)); // the same under im2col and Winograd

    private static final int[][] MICRO_TILES = {{1, 1}, {3, 3}, {4, 2}, {6, 2}, {8, 3}, {2, 4}, {5, 1}};

    @Test void theShapesReachBothAPathsOfTheGemms() {
        for (int[] t : MICRO_TILES) {
            assertTrue(PackedGemm.packsA(MANY_FILTERS, t[1]), "packed A at " + t[0] + "x" + t[1]);
            assertFalse(PackedGemm.packsA(40, t[1]), "A in place at " + t[0] + "x" + t[1]);
        }
    }

    @Test void everyAlgorithmLayoutAndMicroTileMatchesTheReference() {
        for (KernelKey key : SHAPES) {
            ConvWorkload w = (ConvWorkload) FAMILY.workload(key, 17);
            for (String layout : List.of("NCHW", "NHWC")) {
                assertCorrect(w, config(layout, "direct", "scalar", 1, 1, 16, 16, 16, 1));
                assertCorrect(w, config(layout, "direct", "scalar", 1, 1, 16, 16, 16, 3));
                for (String algo : List.of("direct", "im2col", "winograd", "gemm")) {
                    if (algo.equals("winograd") && !Conv2dSpec.winogradFits(key)) continue;
                    if (algo.equals("gemm") && !Conv2dSpec.gemmFits(key)) continue;
                    for (int[] t : MICRO_TILES) {
                        assertCorrect(w, config(layout, algo, "vector", t[0], t[1], 16, 16, 16, 1));
                        assertCorrect(w, config(layout, algo, "vector", t[0], t[1], 32, 64, 4, 2));
                        if (algo.equals("gemm") && layout.equals("NCHW")) {
                            assertCorrect(w, packingInput(config(layout, algo, "vector", t[0], t[1], 16, 16, 16, 1)));
                            assertCorrect(w, packingInput(config(layout, algo, "vector", t[0], t[1], 32, 64, 4, 2)));
                        }
                    }
                }
            }
        }
    }

    /** Points drawn from each shape's space, constraints applied, with the cores of a larger board. */
    @Test void sampledValidPointsMatchTheReference() {
        SplittableRandom random = new SplittableRandom(3);
        for (KernelKey key : SHAPES) {
            ConvWorkload w = (ConvWorkload) FAMILY.workload(key, 5);
            SearchSpace space = SPEC.space(key, 4);
            for (int i = 0; i < 12; i++) assertCorrect(w, space.config(space.sample(random, 10_000).orElseThrow()));
        }
    }

    @Test void defaultConfigIsAValidPointOfTheSpace() {
        for (KernelKey key : SHAPES) {
            SearchSpace space = SPEC.space(key, 2);
            Map<String, Object> d = SPEC.defaultConfig(key, 2);
            assertTrue(space.isValid(space.index(d)), key.id() + " " + d);
            assertEquals("direct", d.get("algo"));
            assertEquals("NCHW", d.get("layout"));
        }
    }

    @Test void winogradIsValidOnlyForThreeByThreeStrideOneWithoutDilation() {
        for (KernelKey key : SHAPES) {
            SearchSpace space = SPEC.space(key, 2);
            Map<String, Object> wino = config("NHWC", "winograd", "vector", 4, 2, 16, 16, 16, 1);
            assertEquals(Conv2dSpec.winogradFits(key), space.isValid(space.index(wino)), key.id());
        }
        ConvWorkload strided = (ConvWorkload) FAMILY.workload(SHAPES.get(1), 1);
        assertThrows(IllegalArgumentException.class, () -> FAMILY.candidate(strided, config("NCHW", "winograd", "vector", 4, 2, 16, 16, 16, 1)));
    }

    /** Packing the input is a choice of the NCHW GEMM alone: valid there, refused by name elsewhere. */
    @Test void onlyTheNchwGemmPacksItsInputByChoice() {
        KernelKey pointwise = SHAPES.get(5);
        assertTrue(Conv2dSpec.gemmFits(pointwise), pointwise.id());
        SearchSpace space = SPEC.space(pointwise, 2);
        assertTrue(space.isValid(space.index(packingInput(config("NCHW", "gemm", "vector", 4, 2, 16, 16, 16, 1)))));
        ConvWorkload w = (ConvWorkload) FAMILY.workload(pointwise, 1);
        for (Map<String, Object> elsewhere : List.of(config("NHWC", "gemm", "vector", 4, 2, 16, 16, 16, 1),
                config("NCHW", "im2col", "vector", 4, 2, 16, 16, 16, 1))) {
            Map<String, Object> p = packingInput(elsewhere);
            assertFalse(space.isValid(space.index(p)), p.toString());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FAMILY.candidate(w, p));
            assertTrue(e.getMessage().startsWith("packInput"), e.getMessage());
        }
        Map<String, Object> two = config("NCHW", "gemm", "vector", 4, 2, 16, 16, 16, 1);
        two.put("packInput", 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FAMILY.candidate(w, two));
        assertEquals("packInput: expected 0 or 1, got 2", e.getMessage());
    }

    @Test void gemmIsValidOnlyForPointwiseLayersAtStrideOneWithoutPadding() {
        for (KernelKey key : SHAPES) {
            SearchSpace space = SPEC.space(key, 2);
            Map<String, Object> gemm = config("NCHW", "gemm", "vector", 6, 2, 16, 16, 16, 1);
            assertEquals(key.dim("R") == 1 && key.dim("S") == 1 && key.dim("stride") == 1 && key.dim("pad") == 0,
                    space.isValid(space.index(gemm)), key.id());
        }
        ConvWorkload strided = (ConvWorkload) FAMILY.workload(SHAPES.get(6), 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FAMILY.candidate(strided, config("NHWC", "gemm", "vector", 4, 2, 16, 16, 16, 1)));
        assertTrue(e.getMessage().startsWith("algo: gemm"), e.getMessage());
    }

    /** Threads split the positions across images: a thread's share may start mid-image and end in another. */
    @Test void gemmSharesThatCrossImagesMatchTheReference() {
        ConvWorkload w = (ConvWorkload) FAMILY.workload(SHAPES.get(5), 4);
        for (String layout : List.of("NCHW", "NHWC")) {
            for (int threads = 2; threads <= 5; threads++) {
                assertCorrect(w, config(layout, "gemm", "vector", 4, 1, 16, 16, 8, threads));
                if (layout.equals("NCHW")) assertCorrect(w, packingInput(config(layout, "gemm", "vector", 4, 1, 16, 16, 8, threads)));
            }
        }
    }

    @Test void aCorruptedOutputIsCaught() {
        ConvWorkload w = (ConvWorkload) FAMILY.workload(SHAPES.get(0), 2);
        try (ConvCandidate c = (ConvCandidate) FAMILY.candidate(w, config("NHWC", "im2col", "vector", 4, 2, 16, 16, 16, 1))) {
            c.run();
            assertTrue(c.maxError() <= w.errorBound());
            c.output()[7] += 0.05f;
            assertTrue(c.maxError() > w.errorBound(), "bound " + w.errorBound());
        }
    }

    @Test void repeatedRunsOverwriteTheOutput() {
        ConvWorkload w = (ConvWorkload) FAMILY.workload(SHAPES.get(2), 2);
        for (String algo : List.of("direct", "im2col")) {
            try (KernelFamily.Candidate c = FAMILY.candidate(w, config("NCHW", algo, "vector", 6, 2, 16, 16, 16, 2))) {
                c.run();
                double first = c.maxError();
                c.run();
                assertEquals(first, c.maxError());
            }
        }
    }

    @Test void outputExtentFollowsPaddingStrideAndDilation() {
        assertEquals(112, Conv2dSpec.outExtent(224, 3, 2, 1, 1));
        assertEquals(360, Conv2dSpec.outExtent(720, 3, 2, 1, 1));
        assertEquals(7, Conv2dSpec.outExtent(11, 3, 1, 0, 2));
        assertEquals(56, Conv2dSpec.outExtent(56, 1, 1, 0, 1));
    }

    static Map<String, Object> config(String layout, String algo, String kernel, int rows, int vecs, int tileP, int tileK, int tileC, int threads) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("layout", layout);
        m.put("algo", algo);
        m.put("kernel", kernel);
        m.put("microRows", rows);
        m.put("microVecs", vecs);
        m.put("tileP", tileP);
        m.put("tileK", tileK);
        m.put("tileC", tileC);
        m.put("threads", threads);
        m.put("packInput", 0);
        return m;
    }

    /** As {@link #config}, the input packed on every call: NCHW gemm only. */
    static Map<String, Object> packingInput(Map<String, Object> config) {
        Map<String, Object> m = new LinkedHashMap<>(config);
        m.put("packInput", 1);
        return m;
    }

    private static void assertCorrect(ConvWorkload w, Map<String, Object> cfg) {
        try (KernelFamily.Candidate c = FAMILY.candidate(w, cfg)) {
            c.run();
            double err = c.maxError();
            assertTrue(err <= w.errorBound(), w.key().id() + " " + cfg + ": error " + err + " > " + w.errorBound());
        }
    }
}
