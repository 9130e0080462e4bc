package org.tunefarm.agent.harness;

import java.util.List;

/**
 * Joules per call over a measurement's timed samples: the board's mean power while the candidate
 * ran, times the samples' window, over the calls they timed. The mean power comes from the
 * board's energy counter where it has one (its rise between two readings over their time apart),
 * else from its power readings. Readings inside the window are used when there are enough (a
 * sustained run's last fifth); a window shorter than the polling period uses the readings taken
 * under load, between the watch's first (before the worker started) and last (after it ended):
 * the candidate draws the same power while it warms up as while it is timed. Null where the
 * board offers neither sensor, or no reading was taken under load.
 */
public final class EnergyMeter {
    /** Counter readings closer than this say little: each is dated to within the polling period. */
    static final double MIN_COUNTER_SPAN_MS = 200;

    private EnergyMeter() {}

    public static Double perCall(List<TimedReading> readings, SampleWindow window) {
        if (window == null) return null;
        List<TimedReading> inside = readings.stream().filter(t -> t.atMs() >= window.fromMs() && t.atMs() <= window.toMs()).toList();
        List<TimedReading> loaded = readings.size() > 2 ? readings.subList(1, readings.size() - 1) : inside;
        Double watts = fromCounter(inside);
        if (watts == null) watts = fromCounter(loaded);
        if (watts == null) watts = meanPower(inside);
        if (watts == null) watts = meanPower(loaded);
        return watts == null ? null : watts * window.seconds() / window.calls();
    }

    /**
     * Mean power from the energy counter: its rise between the first and last readings that have
     * it, over their time apart. A reading is dated when its value was first seen, since a
     * memoised or slowly updated sensor repeats one value for a while; spans shorter than
     * {@link #MIN_COUNTER_SPAN_MS} are too short for those dates and give null (power readings then).
     */
    private static Double fromCounter(List<TimedReading> readings) {
        TimedReading first = null, last = null;
        Double lastValue = null;
        for (TimedReading t : readings) {
            Double e = t.reading().energyJ();
            if (e == null || e.equals(lastValue)) continue;
            lastValue = e;
            if (first == null) first = t;
            last = t;
        }
        if (first == null || last.atMs() - first.atMs() < MIN_COUNTER_SPAN_MS) return null;
        double joules = last.reading().energyJ() - first.reading().energyJ();
        return joules < 0 ? null : joules / ((last.atMs() - first.atMs()) / 1000); // a counter that wrapped says nothing
    }

    private static Double meanPower(List<TimedReading> readings) {
        double sum = 0;
        int n = 0;
        for (TimedReading t : readings) {
            if (t.reading().powerW() == null) continue;
            sum += t.reading().powerW();
            n++;
        }
        return n == 0 ? null : sum / n;
    }
}
