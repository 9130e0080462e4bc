package org.tunefarm.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tunefarm.lookup.Fleet.gemm;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Exact, nearest, default and no answer; the distance, its threshold and ties; objectives. */
class ShapeMatchTest {

    private static final Table TABLE = Fleet.table();
    private static final DeviceTable ZEN = TABLE.forDevice(Device.ofClass(Fleet.ZEN_2C));
    private static final Map<String, Object> FAMILY_DEFAULT = Map.of("kernel", "scalar", "tileM", 16, "threads", 1);

    private static String matched(Answer a) {
        return a == null ? "none" : a.shapeRule() + " " + a.kernelId();
    }

    @Test void anExactShapeAnswersItsWinnerWithItsEvidence() {
        Answer a = ZEN.lookup("gemm", "fp32", gemm(512, 512, 512));
        assertEquals(new Answer(Fleet.ZEN_2C, DeviceRule.CLASS, "gemm", "fp32", "latency", ShapeRule.EXACT,
                Map.of("K", 512, "M", 512, "N", 512), "gemm[K=512,M=512,N=512]:fp32",
                Map.of("kernel", "vector", "tileM", 64, "microRows", 4, "packB", 1),
                1.0e6, 12.0, 268.4, "s-1", "board-1", Instant.ofEpochMilli(1764770000000L)), a);
        assertTrue(a.exact());
        assertEquals(List.of("K", "M", "N"), a.shape().keySet().stream().toList());
    }

    @Test void anUntunedShapeGetsTheNearestWithinLn4() {
        // 768^3 is 3 ln(4/3) = 0.86 from 1024^3 and 3 ln(3/2) = 1.22 from 512^3.
        Answer a = ZEN.lookup("gemm", "fp32", gemm(768, 768, 768));
        assertEquals("NEAREST gemm[K=1024,M=1024,N=1024]:fp32", matched(a));
        assertFalse(a.exact());
        assertEquals(Map.of("kernel", "vector", "tileM", 128, "microRows", 6, "packB", 1), a.params());
        assertEquals("NEAREST gemm[K=4096,M=1,N=4096]:fp32", matched(ZEN.lookup("gemm", "fp32", gemm(2, 4096, 4096))));
        // One dimension 4x off is exactly ln 4: still near. A hair further is not.
        assertEquals("NEAREST gemm[K=512,M=512,N=512]:fp32", matched(ZEN.lookup("gemm", "fp32", gemm(512, 512, 2048))));
        assertEquals("NEAREST gemm[K=512,M=512,N=512]:fp32", matched(ZEN.lookup("gemm", "fp32", gemm(256, 1024, 512))));
        assertEquals("DEFAULT gemm[K=4096,M=1,N=4096]:fp32", matched(ZEN.lookup("gemm", "fp32", gemm(512, 512, 2049))));
    }

    @Test void beyondTheThresholdTheFamilyDefaultOfTheSmallestKernelIdThatHasOne() {
        // 256^3 is 3 ln 2 = 2.08 from 512^3. Of the entries with defaultParams, gemm[K=4096,...] has the smallest id.
        Answer a = ZEN.lookup("gemm", "fp32", gemm(256, 256, 256));
        assertEquals("DEFAULT gemm[K=4096,M=1,N=4096]:fp32", matched(a));
        assertEquals(FAMILY_DEFAULT, a.params());
        assertEquals(8.0e6, a.medianNs());
        assertEquals(1.0, a.speedupOverDefault());
        assertEquals(4.0, a.gflops(), 1e-12); // the winner's 16 GFLOP/s at 2 ms, the default took 8 ms
        assertEquals(Instant.ofEpochMilli(1764770190000L), a.measuredAt());
        assertNull(a.agentId());
        assertSame(a, ZEN.kernel("gemm", "fp32").orElseThrow().familyDefault());
    }

    @Test void theThresholdIsConfigurable() {
        DeviceTable strict = TABLE.forDevice(Device.ofClass(Fleet.ZEN_2C), 0.5);
        assertEquals("DEFAULT gemm[K=4096,M=1,N=4096]:fp32", matched(strict.lookup("gemm", "fp32", gemm(768, 768, 768))));
        DeviceTable exactOnly = TABLE.forDevice(Device.ofClass(Fleet.ZEN_2C), 0);
        assertEquals("EXACT gemm[K=512,M=512,N=512]:fp32", matched(exactOnly.lookup("gemm", "fp32", gemm(512, 512, 512))));
        assertEquals("DEFAULT gemm[K=4096,M=1,N=4096]:fp32", matched(exactOnly.lookup("gemm", "fp32", gemm(513, 512, 512))));
        DeviceTable anything = TABLE.forDevice(Device.ofClass(Fleet.ZEN_2C), Double.POSITIVE_INFINITY);
        assertEquals("NEAREST gemm[K=512,M=512,N=512]:fp32", matched(anything.lookup("gemm", "fp32", gemm(256, 256, 256))));
        assertThrows(IllegalArgumentException.class, () -> TABLE.forDevice(Device.ofClass(Fleet.ZEN_2C), Double.NaN));
    }

    @Test void tiesGoToTheSmallerKernelIdAsText() {
        KernelIndex tie = ZEN.kernel("tie", "fp32").orElseThrow();
        // X=8 is ln 2 from both X=4 and X=16; "tie[X=16]:fp32" sorts before "tie[X=4]:fp32".
        assertEquals("NEAREST tie[X=16]:fp32", matched(tie.lookup(new int[] {8})));
        assertEquals("NEAREST tie[X=4]:fp32", matched(tie.lookup(new int[] {7})));
        assertEquals("NEAREST tie[X=16]:fp32", matched(tie.lookup(new int[] {9})));
    }

    @Test void noDefaultMeansNoAnswerBeyondTheThreshold() {
        assertEquals("none", matched(ZEN.kernel("tie", "fp32").orElseThrow().lookup(new int[] {1000})));
        assertEquals("none", matched(TABLE.forDevice(Device.ofClass(Fleet.ICELAKE)).lookup("gemm", "fp32", gemm(256, 256, 256))));
        // A size of 0 matches only 0: pad=1 is infinitely far from pad=0.
        KernelIndex pad = ZEN.kernel("pad", "fp32").orElseThrow();
        assertEquals("NEAREST pad[P=0,X=64]:fp32", matched(pad.lookup(new int[] {0, 128})));
        assertEquals("none", matched(pad.lookup(new int[] {1, 64})));
    }

    @Test void anObjectiveTheTableLacksGetsNoAnswerAndEachObjectiveItsOwnWinner() {
        assertTrue(ZEN.kernel("gemm", "fp32", "sustained").isEmpty());
        assertNull(ZEN.lookup("gemm", "fp32", "sustained", gemm(512, 512, 512)));
        Answer energy = ZEN.lookup("gemm", "fp32", "energy", gemm(512, 512, 512));
        assertEquals("EXACT gemm[K=512,M=512,N=512]:fp32", matched(energy));
        assertEquals("energy", energy.objective());
        assertEquals(32, energy.params().get("tileM"));
        assertEquals(64, ZEN.lookup("gemm", "fp32", gemm(512, 512, 512)).params().get("tileM"));
        // The family default does not depend on the objective.
        Answer far = ZEN.lookup("gemm", "fp32", "energy", gemm(256, 256, 256));
        assertEquals(ShapeRule.DEFAULT, far.shapeRule());
        assertEquals(FAMILY_DEFAULT, far.params());
        assertEquals("energy", far.objective());
    }

    @Test void shapesArePassedInTheIndexOrder() {
        KernelIndex g = ZEN.kernel("gemm", "fp32").orElseThrow();
        assertEquals(List.of("K", "M", "N"), g.dimensions());
        int[] batch1 = g.shape(gemm(1, 4096, 4096));
        assertEquals(List.of(4096, 1, 4096), java.util.Arrays.stream(batch1).boxed().toList());
        assertEquals("EXACT gemm[K=4096,M=1,N=4096]:fp32", matched(g.lookup(batch1)));
        assertThrows(IllegalArgumentException.class, () -> g.lookup(new int[] {512, 512}));
        assertThrows(IllegalArgumentException.class, () -> g.lookup(new int[] {512, -1, 512}));
        assertThrows(IllegalArgumentException.class, () -> g.shape(Map.of("M", 1, "N", 2)));
        // Shapes with other dimension names never match.
        assertNull(ZEN.lookup("gemm", "fp32", Map.of("M", 512, "N", 512)));
        assertEquals(3, g.tunedShapes().size());
    }

    @Test void theDistanceIsTheSumOfAbsoluteLogRatios() {
        assertEquals(Math.log(4), KernelIndex.distance(new int[] {512, 512, 2048}, new int[] {512, 512, 512}), 1e-15);
        assertEquals(3 * Math.log(1.5), KernelIndex.distance(new int[] {768, 768, 768}, new int[] {512, 512, 512}), 1e-15);
        assertEquals(0, KernelIndex.distance(new int[] {0, 7}, new int[] {0, 7}));
        assertEquals(Double.POSITIVE_INFINITY, KernelIndex.distance(new int[] {0, 7}, new int[] {1, 7}));
        assertEquals(Table.DEFAULT_MAX_DISTANCE, 1.3862943611198906);
    }
}
