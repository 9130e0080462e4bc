package org.tunefarm.agent.kernels.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tunefarm.agent.kernels.gemm.GemmFamilyTest.shape;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.kernel.GemmSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.space.SearchSpace;

class GemmSpaceTest {

    private static final GemmSpec SPEC = new GemmSpec();

    @Test void defaultConfigIsInTheDomainsForEveryShape() {
        for (KernelKey key : List.of(shape(1, 4096, 4096), shape(1024, 1024, 1024), shape(1, 37, 19), shape(3, 5, 7))) {
            SearchSpace unconstrained = new SearchSpace(SPEC.parameters(key, 2), List.of());
            Map<String, Object> def = SPEC.defaultConfig(key, 2);
            unconstrained.index(def); // throws naming a parameter outside its domain
            assertEquals("scalar", def.get("kernel"));
            assertEquals("ikj", def.get("loopOrder"));
            assertEquals(1, def.get("threads"));
        }
        assertEquals(Map.of("kernel", "scalar", "loopOrder", "ikj", "tileM", 64, "tileN", 256, "tileK", 128,
                "microRows", 1, "microVecs", 1, "packA", 0, "packB", 0, "threads", 1), SPEC.defaultConfig(shape(512, 512, 512), 2));
    }

    @Test void defaultConfigSatisfiesTheConstraints() {
        for (KernelKey key : List.of(shape(1, 4096, 4096), shape(1024, 1024, 1024), shape(1, 37, 19))) {
            SearchSpace space = SPEC.space(key, 2);
            assertNull(space.violated(space.index(SPEC.defaultConfig(key, 2))));
        }
    }

    @Test void constraintsPruneDuplicatePoints() {
        SearchSpace space = SPEC.space(shape(1024, 1024, 1024), 2);
        assertEquals(138_240, space.size());
        // scalar: 2 loop orders x 180 tile triples x packB 2 x threads 2 = 1,440; vector: ikj only,
        // 180 tile triples x threads 2 x (row streamer 4 microVecs + 19 register tiles x 4 packings)
        // = 28,800.
        assertEquals(30_240, space.countValid());
        // The vector path has one loop order; scalar ignores the micro-tile.
        var vectorIjk = new java.util.HashMap<>(GemmProbe.vector(64, 256, 256, 6, 2, 1, 1, 1));
        vectorIjk.put("loopOrder", "ijk");
        assertTrue(space.violated(space.index(vectorIjk)) != null);
    }

    @Test void domainsShrinkToTheShape() {
        var ps = SPEC.parameters(shape(1, 100, 40), 4);
        SearchSpace s = new SearchSpace(ps, List.of());
        assertEquals(List.of(16), s.parameter("tileM").values());
        assertEquals(List.of(32, 64, 128), s.parameter("tileN").values());
        assertEquals(List.of(32, 64), s.parameter("tileK").values());
        assertEquals(List.of(1), s.parameter("microRows").values());
        assertEquals(List.of(1, 2, 3, 4), s.parameter("threads").values());
    }
}
