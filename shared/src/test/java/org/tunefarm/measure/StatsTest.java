package org.tunefarm.measure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void evenSampleCountTakesTheMeanOfTheMiddleTwo() {
        Stats s = Stats.of(new double[] {4, 1, 3, 2}, 10);
        assertEquals(1, s.minNs());
        assertEquals(2.5, s.medianNs());
        assertEquals(2.5, s.meanNs());
        assertEquals(Math.sqrt(5.0 / 3), s.stdevNs(), 1e-12); // sample stdev, n - 1
        assertEquals(Math.sqrt(5.0 / 3) / 2.5, s.cv(), 1e-12);
        assertEquals(4, s.samples());
        assertEquals(10, s.callsPerSample());
    }

    @Test
    void oddSampleCountTakesTheMiddleOne() {
        Stats s = Stats.of(new double[] {9, 100, 1, 7, 8}, 1);
        assertEquals(1, s.minNs());
        assertEquals(8, s.medianNs());
        assertEquals(25, s.meanNs());
        // deviations -24, 75, -18, -16, -17: squares sum to 7070
        assertEquals(Math.sqrt(7070.0 / 4), s.stdevNs(), 1e-9);
        assertEquals(Math.sqrt(7070.0 / 4) / 25, s.cv(), 1e-12);
    }

    @Test
    void oneSampleHasNoSpread() {
        Stats s = Stats.of(new double[] {42}, 3);
        assertEquals(42, s.minNs());
        assertEquals(42, s.medianNs());
        assertEquals(42, s.meanNs());
        assertEquals(0, s.stdevNs());
        assertEquals(0, s.cv());
        assertEquals(1, s.samples());
    }

    @Test
    void identicalSamplesHaveZeroCv() {
        Stats s = Stats.of(new double[] {5, 5, 5, 5, 5, 5}, 2);
        assertEquals(5, s.medianNs());
        assertEquals(0, s.stdevNs());
        assertEquals(0, s.cv());
    }

    @Test
    void callersSamplesAreNotReordered() {
        double[] samples = {3, 1, 2};
        Stats.of(samples, 1);
        assertArrayEquals(new double[] {3, 1, 2}, samples);
    }

    @Test
    void noSamplesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Stats.of(new double[0], 1));
    }

    @Test
    void slowSamplesFarAboveTheMedianAreSetAsideAsInterference() {
        // Nine samples near 100 and two that lost a time slice to another process.
        double[] samples = {100, 101, 99, 100, 102, 98, 100, 101, 99, 180, 250};
        Stats s = Stats.withoutInterference(samples, 4);
        assertEquals(2, s.outliers());
        assertEquals(9, s.samples());
        assertEquals(100, s.medianNs());
        assertTrue(Stats.of(samples, 4).meanNs() > 110, "the raw mean is dragged up");
        assertTrue(s.cv() < 0.02, "cv over the kept samples: " + s.cv());
        assertEquals(0, Stats.of(samples, 4).outliers());
    }

    @Test
    void fastSamplesAreNeverSetAside() {
        Stats s = Stats.withoutInterference(new double[] {100, 100, 100, 100, 50, 10}, 1);
        assertEquals(0, s.outliers());
        assertEquals(10, s.minNs());
    }

    @Test
    void ordinaryJitterWithinOnePercentIsKeptEvenWhenTheRestAreIdentical() {
        Stats s = Stats.withoutInterference(new double[] {100, 100, 100, 100, 100.9}, 1);
        assertEquals(0, s.outliers());
        assertEquals(1, Stats.withoutInterference(new double[] {100, 100, 100, 100, 103}, 1).outliers());
    }

    @Test
    void atLeastHalfTheSamplesAreKept() {
        Stats s = Stats.withoutInterference(new double[] {1, 2, 300, 400, 500}, 1);
        assertTrue(s.samples() >= 3, "kept " + s.samples());
    }
}
