package org.tunefarm.agent.harness;

import java.util.List;
import org.tunefarm.measure.SensorReading;

/**
 * Joules per call over a measurement's timed samples, from the readings taken while it ran: the
 * difference of the board's energy counter across the samples' window where it has one
 * (interpolated between readings), else its mean power over the window times the window's length.
 * Null where the board offers neither, or too few readings fall around the window.
 */
public final class EnergyMeter {
    private EnergyMeter() {}

    public static Double perCall(List<TimedReading> readings, SampleWindow window) {
        if (window == null || readings.isEmpty()) return null;
        Double fromCounter = counter(readings, window);
        if (fromCounter != null) return fromCounter;
        double sum = 0;
        int n = 0;
        Double nearest = null;
        double nearestGap = Double.MAX_VALUE;
        for (TimedReading t : readings) {
            Double p = t.reading().powerW();
            if (p == null) continue;
            if (t.atMs() >= window.fromMs() && t.atMs() <= window.toMs()) {
                sum += p;
                n++;
            }
            double gap = Math.abs(t.atMs() - (window.fromMs() + window.toMs()) / 2);
            if (gap < nearestGap) {
                nearestGap = gap;
                nearest = p;
            }
        }
        // A window shorter than the polling period may hold no reading: the nearest stands for it.
        Double meanW = n > 0 ? Double.valueOf(sum / n) : nearest;
        return meanW == null ? null : meanW * window.seconds() / window.calls();
    }

    /** From the energy counter: needs a reading at or before the window's start and one at or after its end. */
    private static Double counter(List<TimedReading> readings, SampleWindow w) {
        Double start = interpolate(readings, w.fromMs());
        Double end = interpolate(readings, w.toMs());
        if (start == null || end == null || end < start) return null; // a counter that wrapped says nothing
        return (end - start) / w.calls();
    }

    private static Double interpolate(List<TimedReading> readings, double atMs) {
        TimedReading before = null, after = null;
        for (TimedReading t : readings) {
            SensorReading r = t.reading();
            if (r.energyJ() == null) continue;
            if (t.atMs() <= atMs) before = t;
            if (t.atMs() >= atMs && after == null) after = t;
        }
        if (before == null || after == null) return null;
        if (after.atMs() == before.atMs()) return before.reading().energyJ();
        double f = (atMs - before.atMs()) / (after.atMs() - before.atMs());
        return before.reading().energyJ() + f * (after.reading().energyJ() - before.reading().energyJ());
    }
}
