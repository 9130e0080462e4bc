package org.tunefarm.measure;

/**
 * What the device's heat did around one measurement: whether the agent waited for it to cool
 * before the candidate, how warm it was when the candidate started, and whether the measurement
 * ran throttled. Null fields mean the agent could not tell (no temperature sensor), never 0.
 *
 * @param startTemperatureC temperature when the candidate started, after any cooldown
 * @param cooldownWaitMs    time waited for the device to cool below its start temperature first (0: none)
 * @param cooldownTimedOut  the wait ended at its timeout, with the device still warmer than its start temperature
 * @param throttle          why the measurement counts as throttled (clock below the board's cool
 *                          baseline, the board's throttle flag, over the trip point, sample times
 *                          drifting upward), or null when it did not; such a record has status THROTTLED
 */
public record Thermal(Double startTemperatureC, long cooldownWaitMs, boolean cooldownTimedOut, String throttle) {

    public Thermal {
        if (cooldownWaitMs < 0) throw new IllegalArgumentException("cooldownWaitMs must be at least 0, got " + cooldownWaitMs);
    }
}
