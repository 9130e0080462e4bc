package org.tunefarm.agent.harness;

/**
 * The agent config's {@code thermal:} section: how the agent waits for its board to cool and when
 * it counts a measurement as throttled.
 *
 * @param startTemperatureC  the gate opens below this, °C; null: the first idle reading at agent start plus {@code marginC}
 * @param marginC            added to the idle reading for the default start temperature
 * @param cooldownTimeoutMs  the longest wait for the board to cool; the candidate then runs anyway, and its record says so
 * @param maxThrottleRetakes how often a throttled measurement is taken again after cooling before it is reported THROTTLED
 * @param clockTolerance     a clock under load this share below the board's cool baseline counts as throttled
 */
public record ThermalSettings(Double startTemperatureC, double marginC, long cooldownTimeoutMs, int maxThrottleRetakes, double clockTolerance) {

    public static final ThermalSettings DEFAULTS = new ThermalSettings(null, 5, 120_000, 2, 0.10);

    public ThermalSettings {
        if (startTemperatureC != null && !(startTemperatureC > -50 && startTemperatureC < 200)) {
            throw new IllegalArgumentException("thermal.startTemperatureC must be in (-50, 200) °C, got " + startTemperatureC);
        }
        if (!(marginC >= 0 && marginC <= 100)) throw new IllegalArgumentException("thermal.marginC must be in [0, 100], got " + marginC);
        if (cooldownTimeoutMs < 0 || cooldownTimeoutMs > 3_600_000) {
            throw new IllegalArgumentException("thermal.cooldownTimeoutMs must be in [0, 3600000], got " + cooldownTimeoutMs);
        }
        if (maxThrottleRetakes < 0 || maxThrottleRetakes > 10) throw new IllegalArgumentException("thermal.maxThrottleRetakes must be in [0, 10], got " + maxThrottleRetakes);
        if (!(clockTolerance > 0 && clockTolerance < 1)) throw new IllegalArgumentException("thermal.clockTolerance must be in (0, 1), got " + clockTolerance);
    }

    /** The temperature the gate waits for, given the idle reading at start (null: no thermometer, no gate). */
    public Double startTemperature(Double idleC) {
        if (startTemperatureC != null) return startTemperatureC;
        return idleC == null ? null : idleC + marginC;
    }
}
