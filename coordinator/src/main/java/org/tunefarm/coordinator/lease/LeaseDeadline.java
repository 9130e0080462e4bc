package org.tunefarm.coordinator.lease;

import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;

/**
 * How long a lease may run before its unreported candidates go back to the queue: each candidate's
 * allowance, one cooldown wait before the batch (the agent waits for its device to cool to its start
 * temperature, at most the sweep's {@code cooldownTimeoutMs}), for a sustained finalists' round each
 * candidate's continuous run, and a fixed margin for the round trips.
 */
public final class LeaseDeadline {

    /** Round trips, JVM start and the worker's build before the first candidate. */
    static final long MARGIN_MS = 30_000;

    private LeaseDeadline() {}

    /**
     * @param sustainedSeconds how long each candidate runs continuously (a sustained sweep's
     *                         finalists), 0 for any other lease
     * @return the lease's deadline, epoch ms
     */
    public static long of(long now, int candidates, MeasureSettings measure, Fidelity fidelity, double sustainedSeconds) {
        long sustainedMs = (long) Math.ceil(candidates * sustainedSeconds * 1000);
        return now + candidates * measure.timeoutMs() + fidelity.cooldownTimeoutMs() + sustainedMs + MARGIN_MS;
    }
}
