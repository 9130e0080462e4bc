package org.tunefarm.agent.harness;

import java.util.function.LongSupplier;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.measure.SensorReading;

/**
 * Waits, before a batch, before finalists and before a throttled measurement is taken again, until
 * the board is below its start temperature, so that each candidate starts from the same cool board
 * instead of from whatever heat the previous one left. Polls the sensors; gives up at the
 * timeout (the candidate then runs, and its record says the wait timed out). A board without a
 * thermometer never waits.
 */
public final class CooldownGate {

    /** How often the sensors are asked while waiting. */
    static final long POLL_MS = 250;

    /** How to wait between polls: {@code Thread::sleep}, or a fake clock's step in tests. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(long ms) throws InterruptedException;
    }

    /**
     * What the wait came to.
     *
     * @param temperatureC when it ended, null without a thermometer
     * @param waitedMs     how long it waited (0 when already cool)
     * @param timedOut     it stopped at the timeout, still too warm
     */
    public record Cooldown(Double temperatureC, long waitedMs, boolean timedOut) {
        public static final Cooldown NONE = new Cooldown(null, 0, false);
    }

    private final Sensors sensors;
    private final Double startTemperatureC;
    private final long timeoutMs;
    private final LongSupplier clockMs;
    private final Sleeper sleeper;

    /** @param startTemperatureC the gate opens below this; null: no thermometer, never waits */
    public CooldownGate(Sensors sensors, Double startTemperatureC, long timeoutMs, LongSupplier clockMs, Sleeper sleeper) {
        this.sensors = sensors;
        this.startTemperatureC = startTemperatureC;
        this.timeoutMs = timeoutMs;
        this.clockMs = clockMs;
        this.sleeper = sleeper;
    }

    public Double startTemperatureC() {
        return startTemperatureC;
    }

    /** Waits until cool, the timeout, or an interrupt (which stays set for the caller to see). */
    public Cooldown await() {
        return await(Long.MAX_VALUE);
    }

    /** Waits until cool, the timeout or {@code limitMs} (what the lease can spare), whichever comes first. */
    public Cooldown await(long limitMs) {
        Double t = temperature();
        if (startTemperatureC == null || t == null) return new Cooldown(t, 0, false);
        long timeoutMs = Math.max(0, Math.min(this.timeoutMs, limitMs));
        long start = clockMs.getAsLong();
        while (t != null && t >= startTemperatureC) {
            long waited = clockMs.getAsLong() - start;
            if (waited >= timeoutMs) return new Cooldown(t, waited, true);
            try {
                sleeper.sleep(Math.min(POLL_MS, timeoutMs - waited));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Cooldown(t, clockMs.getAsLong() - start, false);
            }
            t = temperature();
        }
        return new Cooldown(t, clockMs.getAsLong() - start, false);
    }

    private Double temperature() {
        try {
            SensorReading r = sensors.read();
            return r == null ? null : r.temperatureC();
        } catch (RuntimeException e) { // a sensor that fails is no sensor: do not wait on it
            return null;
        }
    }
}
