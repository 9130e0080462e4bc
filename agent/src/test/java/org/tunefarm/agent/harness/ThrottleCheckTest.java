package org.tunefarm.agent.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunefarm.measure.SensorReading;

class ThrottleCheckTest {

    /** Readings 100 ms apart at these temperatures and clocks. */
    private static List<TimedReading> during(double[] celsius, double[] mhz) {
        List<TimedReading> out = new ArrayList<>();
        for (int i = 0; i < celsius.length; i++) out.add(new TimedReading(i * 100.0, new SensorReading(celsius[i], mhz[i], null)));
        return out;
    }

    @Test
    void aClockBelowTheCoolBaselineOnAWarmBoardIsThrottling() {
        ThrottleCheck check = new ThrottleCheck(0.10, 2000.0);
        assertNull(check.verdict(during(new double[] {50, 52, 53}, new double[] {2000, 1900, 1850}), null, 45.0, null), "8% below: within tolerance");
        String why = check.verdict(during(new double[] {58, 60, 62}, new double[] {2000, 1500, 1400}), null, 45.0, null);
        assertNotNull(why);
        assertTrue(why.contains("clock 1450 MHz under load") && why.contains("cool baseline 2000 MHz"), why);
    }

    @Test
    void aBoostingCoreSetsTheBaselineAndACoolBoardIsNeverThrottledByItsClock() {
        // An x86 board idles at 800 MHz and boosts to 4500 under load: the idle clock is no ceiling.
        ThrottleCheck check = new ThrottleCheck(0.10, 800.0);
        assertNull(check.verdict(during(new double[] {40, 41, 41}, new double[] {800, 4500, 4500}), null, 45.0, null));
        assertEquals(4500.0, check.baselineMhz(), "the highest clock under load while cool");
        // All-core boost is lower than single-core boost: cool, so not heat.
        assertNull(check.verdict(during(new double[] {40, 42, 43}, new double[] {800, 3800, 3800}), null, 45.0, null));
        // Warm and far below the cool baseline: throttled.
        assertNotNull(check.verdict(during(new double[] {70, 75, 78}, new double[] {4500, 2500, 2400}), null, 45.0, null));
        assertEquals(4500.0, check.baselineMhz(), "a throttled measurement does not move the baseline");
    }

    @Test
    void theBoardsFlagTheTripPointAndDriftEachCount() {
        ThrottleCheck check = new ThrottleCheck(0.10, 1500.0);
        List<TimedReading> pi = List.of(new TimedReading(0, new SensorReading(60.0, 1500.0, null, null, null, null, null, 0x50000)),
                new TimedReading(100, new SensorReading(61.0, 1500.0, null, null, null, null, null, 0x50005)));
        String flag = check.verdict(pi, null, 45.0, null);
        assertNotNull(flag);
        assertTrue(flag.contains("0x50005"), flag);
        List<TimedReading> pastBits = List.of(new TimedReading(0, new SensorReading(50.0, 1500.0, null, null, null, null, null, 0x50000)));
        assertNull(check.verdict(pastBits, null, 45.0, null), "throttled since boot, not now: not this measurement");
        String hot = check.verdict(during(new double[] {79, 81.5}, new double[] {1500, 1500}), null, 45.0, 80.0);
        assertTrue(hot.contains("81.5 °C over the trip point 80.0 °C"), hot);
        assertEquals("drifting", check.verdict(during(new double[] {40, 41}, new double[] {1500, 1500}), "drifting", 45.0, 80.0));
        assertNull(check.verdict(List.of(), null, null, null), "no sensors, no drift: nothing to say");
    }
}
