package org.tunefarm.agent.sensors;

/**
 * What a real board can report. A driver's sentinel (a disconnected sensor, an unset register) is
 * dropped as absent here, because the coordinator refuses a record with an impossible reading
 * (its bounds are the same) and the measurement would be lost for a sensor's sake.
 */
final class Plausible {
    static final double MIN_CELSIUS = -100, MAX_CELSIUS = 300;
    static final double MAX_MHZ = 100_000;
    static final double MAX_WATTS = 100_000;

    private Plausible() {}

    /** {@code v} when in [min, max], else null. */
    static Double within(Double v, double min, double max) {
        return v != null && v >= min && v <= max ? v : null;
    }
}
