package org.tunefarm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.space.SearchSpace;

/** A device whose JVM lacks the Vector API (vectorBits 0) is offered only the scalar variants. */
class ScalarSpaceTest {

    static final Map<String, KernelKey> KEYS = Map.of(
            "gemm", new KernelKey("gemm", Map.of("M", 64, "N", 64, "K", 64), "fp32"),
            "conv2d", new KernelKey("conv2d", Map.of("N", 1, "C", 8, "H", 16, "W", 16, "K", 8, "R", 3, "S", 3,
                    "stride", 1, "pad", 1, "dilation", 1), "fp32"),
            "depthwise_conv2d", new KernelKey("depthwise_conv2d", Map.of("N", 1, "C", 8, "H", 16, "W", 16, "R", 3, "S", 3,
                    "stride", 1, "pad", 1), "fp32"));

    @Test void withoutVectorsEveryValidPointIsScalarAndEveryScalarPointRemains() {
        for (var e : KEYS.entrySet()) {
            KernelSpec spec = KernelSpecs.get(e.getKey());
            SearchSpace full = spec.space(e.getValue(), 2);
            SearchSpace scalar = spec.space(e.getValue(), 2, 0);
            assertEquals(List.of("scalar"), scalar.parameter("kernel").values(), e.getKey());
            long scalarInFull = 0;
            for (Iterator<Long> it = full.validIndices(); it.hasNext(); ) {
                if (full.config(it.next()).get("kernel").equals("scalar")) scalarInFull++;
            }
            assertEquals(scalarInFull, scalar.countValid(), e.getKey() + ": the same scalar points, no more, no fewer");
            assertTrue(scalar.countValid() > 0 && scalar.countValid() < full.countValid(), e.getKey());
            assertTrue(scalar.isValid(scalar.index(spec.defaultConfig(e.getValue(), 2))), e.getKey() + ": the untuned default still runs");
        }
    }

    @Test void withVectorsTheSpaceIsUnchanged() {
        KernelSpec gemm = KernelSpecs.get("gemm");
        SearchSpace full = gemm.space(KEYS.get("gemm"), 2);
        assertEquals(full, gemm.space(KEYS.get("gemm"), 2, 128));
        assertSame(full, gemm.forVectors(full, 512));
    }

    @Test void aSweepOfVectorVariantsOnlyLeavesADeviceWithoutVectorsNothing() {
        KernelSpec gemm = KernelSpecs.get("gemm");
        Map<String, List<Object>> vectorOnly = Map.of("kernel", List.of("vector"));
        assertFalse(gemm.runsWithoutVectors(vectorOnly));
        assertTrue(gemm.runsWithoutVectors(Map.of("kernel", List.of("vector", "scalar"))));
        assertTrue(gemm.runsWithoutVectors(Map.of("threads", List.of(1))));
        SearchSpace narrowed = gemm.space(KEYS.get("gemm"), 2).narrow(vectorOnly, List.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> gemm.forVectors(narrowed, 0));
        assertTrue(e.getMessage().startsWith("kernel: "), e.getMessage());
    }

    @Test void familiesWithoutVectorVariantsAreUntouched() {
        KernelSpec sleep = KernelSpecs.get("sleep");
        KernelKey key = new KernelKey("sleep", Map.of("unitUs", 5), "fp32");
        assertEquals(sleep.space(key, 2), sleep.space(key, 2, 0));
        assertTrue(sleep.runsWithoutVectors(Map.of("a", List.of(5))));
    }
}
