package org.tunefarm.agent.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.tunefarm.measure.SensorReading;

/**
 * Whether a measurement ran on a throttling board, from what the sensors said while it ran and
 * how its sample times moved. Any of these counts, first found first named:
 * <ul>
 *   <li>the board says so now (Raspberry Pi throttle bits, {@link SensorReading#throttledNow()});
 *   <li>the temperature went over the zones' trip point;
 *   <li>the clock under load (median of the readings after the first) fell more than the tolerance
 *       below the board's own cool baseline, while the board was warm: the highest clock it has
 *       shown under load while cool, or at start. Not its nominal maximum: a boosting x86 core
 *       runs above it, and a board that never reaches it would always look throttled. Only when
 *       warm (at or over the start temperature, or without a thermometer), since a cool board's
 *       lower clock (all-core versus single-core boost) is not heat;
 *   <li>the sample times drift upward within the measurement ({@link DriftCheck}, in the worker).
 * </ul>
 * Not thread-safe: one agent measures one candidate at a time.
 */
public final class ThrottleCheck {

    private final double tolerance;
    private Double baselineMhz;

    /** @param idleMhz the clock at agent start, the baseline's first value; null when unknown */
    public ThrottleCheck(double tolerance, Double idleMhz) {
        this.tolerance = tolerance;
        this.baselineMhz = idleMhz;
    }

    public Double baselineMhz() {
        return baselineMhz;
    }

    /**
     * Why the measurement counts as throttled, or null. A clean measurement taken cool raises the
     * baseline to its clock under load.
     *
     * @param during      readings while it ran, in time order
     * @param drift       the worker's drift verdict, or null
     * @param startC      the gate's start temperature, null without a thermometer
     * @param tripPointC  where the board starts to throttle, null when it does not say
     */
    public String verdict(List<TimedReading> during, String drift, Double startC, Double tripPointC) {
        Integer flags = null;
        Double hottest = null;
        for (TimedReading t : during) {
            SensorReading r = t.reading();
            if (r.throttledNow() && flags == null) flags = r.throttled();
            if (r.temperatureC() != null && (hottest == null || r.temperatureC() > hottest)) hottest = r.temperatureC();
        }
        Double underLoad = clockUnderLoad(during);
        if (flags != null) return String.format(Locale.ROOT, "the board reports throttling (throttle bits 0x%x)", flags);
        if (hottest != null && tripPointC != null && hottest > tripPointC) {
            return String.format(Locale.ROOT, "temperature %.1f °C over the trip point %.1f °C", hottest, tripPointC);
        }
        boolean warm = hottest == null || startC == null || hottest >= startC;
        if (underLoad != null && baselineMhz != null && warm && underLoad < baselineMhz * (1 - tolerance)) {
            return String.format(Locale.ROOT, "clock %.0f MHz under load, more than %.0f%% below the cool baseline %.0f MHz", underLoad, tolerance * 100, baselineMhz);
        }
        if (drift != null) return drift;
        if (underLoad != null && !warm && (baselineMhz == null || underLoad > baselineMhz)) baselineMhz = underLoad;
        return null;
    }

    /** The median clock of the readings after the first (which may predate the load); null with too few. */
    static Double clockUnderLoad(List<TimedReading> during) {
        List<Double> mhz = new ArrayList<>();
        for (int i = 1; i < during.size(); i++) {
            Double c = during.get(i).reading().clockMhz();
            if (c != null) mhz.add(c);
        }
        if (mhz.isEmpty()) return null;
        Collections.sort(mhz);
        int n = mhz.size();
        return n % 2 == 1 ? mhz.get(n / 2) : (mhz.get(n / 2 - 1) + mhz.get(n / 2)) / 2;
    }
}
