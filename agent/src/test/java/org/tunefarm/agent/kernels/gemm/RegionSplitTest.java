package org.tunefarm.agent.kernels.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RegionSplitTest {

    @Test void tallShapeSplitsAlongMOnMicroTileBoundaries() {
        List<RegionSplit> r = RegionSplit.of(100, 40, 50, 3, 6, 32);
        assertEquals(3, r.size());
        int next = 0;
        for (RegionSplit s : r) {
            assertEquals(next, s.m0());
            assertTrue(s.m0() % 6 == 0);
            assertEquals(0, s.n0());
            assertEquals(40, s.n1());
            assertEquals(50, s.k1());
            next = s.m1();
        }
        assertEquals(100, next);
    }

    @Test void gemvSplitsAlongKSoEachThreadStreamsContiguousRowsOfB() {
        List<RegionSplit> r = RegionSplit.of(1, 4096, 4096, 2, 1, 64);
        assertEquals(List.of(new RegionSplit(0, 1, 0, 4096, 0, 2048), new RegionSplit(0, 1, 0, 4096, 2048, 4096)), r);
        assertTrue(r.get(1).partialK(4096));
    }

    @Test void wideShapeSplitsAlongN() {
        List<RegionSplit> r = RegionSplit.of(20, 4096, 64, 2, 6, 64);
        assertEquals(List.of(new RegionSplit(0, 20, 0, 2048, 0, 64), new RegionSplit(0, 20, 2048, 4096, 0, 64)), r);
    }

    @Test void neverMoreBlocksThanMicroTilesOrSteps() {
        assertEquals(1, RegionSplit.of(5, 3, 9, 4, 6, 16).size());
        assertEquals(3, RegionSplit.of(1, 20, 3, 8, 1, 16).size());
    }
}
