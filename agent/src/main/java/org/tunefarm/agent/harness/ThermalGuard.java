package org.tunefarm.agent.harness;

import java.util.List;
import java.util.function.LongSupplier;
import java.util.logging.Logger;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.measure.SensorReading;

/**
 * The agent's watch over its board's heat, shared by all its batches (one board, one baseline):
 * the {@link CooldownGate} before batches, finalists and re-takes, the {@link SensorWatch} during
 * each measurement, and the {@link ThrottleCheck} after it.
 */
public final class ThermalGuard {
    private static final Logger LOG = Logger.getLogger(ThermalGuard.class.getName());

    private final Sensors sensors;
    private final ThermalSettings settings;
    private final CooldownGate gate;
    private final ThrottleCheck check;
    private final SensorWatch watch;

    /**
     * @param startC  the gate's start temperature, null without a thermometer
     * @param idleMhz the clock at start, the first cool baseline; null when unknown
     */
    public ThermalGuard(Sensors sensors, ThermalSettings settings, Double startC, Double idleMhz, LongSupplier clockMs, CooldownGate.Sleeper sleeper) {
        this.sensors = sensors;
        this.settings = settings;
        this.gate = new CooldownGate(sensors, startC, settings.cooldownTimeoutMs(), clockMs, sleeper);
        this.check = new ThrottleCheck(settings.clockTolerance(), idleMhz);
        this.watch = new SensorWatch(sensors);
    }

    /**
     * Reads the board once, idle, at agent start: its temperature (plus the margin) is the start
     * temperature unless the settings name one, and its clock the first cool baseline.
     */
    public static ThermalGuard atStart(Sensors sensors, ThermalSettings settings) {
        SensorReading idle = read(sensors);
        Double startC = settings.startTemperature(idle.temperatureC());
        if (startC != null) LOG.info(() -> "cooldown gate: candidates start below " + startC + " °C (idle " + idle.temperatureC() + " °C)");
        else LOG.info("cooldown gate: no temperature sensor, so no waiting for the board to cool");
        return new ThermalGuard(sensors, settings, startC, idle.clockMhz(), System::currentTimeMillis, Thread::sleep);
    }

    /** Waits for the board to cool below its start temperature, at most the settings' timeout and {@code limitMs}. */
    public CooldownGate.Cooldown cool(long limitMs) {
        return gate.await(limitMs);
    }

    /** Starts reading the sensors for one measurement. */
    public SensorWatch.Watching watch() {
        return watch.start();
    }

    /** Why a measurement whose readings and drift verdict these are ran throttled, or null. */
    public String throttle(List<TimedReading> during, String drift) {
        Double trip;
        try {
            trip = sensors.tripPointC();
        } catch (RuntimeException e) {
            trip = null;
        }
        return check.verdict(during, drift, gate.startTemperatureC(), trip);
    }

    public int maxThrottleRetakes() {
        return settings.maxThrottleRetakes();
    }

    public Double startTemperatureC() {
        return gate.startTemperatureC();
    }

    /** Sensors are evidence, not a precondition: a failing sensor is recorded as absent. */
    static SensorReading read(Sensors sensors) {
        try {
            SensorReading r = sensors.read();
            return r == null ? SensorReading.NONE : r;
        } catch (RuntimeException e) {
            return SensorReading.NONE;
        }
    }
}
