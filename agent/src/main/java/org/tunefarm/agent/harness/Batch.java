package org.tunefarm.agent.harness;

import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Objective;
import java.util.List;
import java.util.Objects;
import org.tunefarm.kernel.KernelKey;

/**
 * Candidates of one sweep for one kernel key, measured together on one worker.
 *
 * @param sweepId    the sweep they belong to
 * @param key        what they compute
 * @param candidates in the coordinator's order; the runner shuffles them with {@code settings.seed()}
 * @param settings   how to measure each
 * @param round      0: measure one by one, re-taking noisy ones; 1 and up: finalists, measured interleaved
 * @param fidelity   the sweep's noise guards
 * @param objective  what the sweep tunes for; a sustained sweep's finalists each run without pause
 * @param sustainedSeconds how long each of a sustained sweep's finalists runs; 0 otherwise
 * @param deadlineMs the lease's deadline, epoch ms by the coordinator's clock; {@link Long#MAX_VALUE} for none. Waits
 *                   for the board to cool (and re-takes) stop where they would leave the rest no time before it
 */
public record Batch(String sweepId, KernelKey key, List<BatchCandidate> candidates, MeasureSettings settings, int round, Fidelity fidelity,
                    Objective objective, double sustainedSeconds, long deadlineMs) {
    public Batch {
        Objects.requireNonNull(sweepId, "sweepId");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(settings, "settings");
        candidates = List.copyOf(candidates);
        if (fidelity == null) fidelity = Fidelity.DEFAULTS;
        if (objective == null) objective = Objective.LATENCY;
    }

    /** A batch of a latency sweep, without a deadline. */
    public Batch(String sweepId, KernelKey key, List<BatchCandidate> candidates, MeasureSettings settings, int round, Fidelity fidelity) {
        this(sweepId, key, candidates, settings, round, fidelity, Objective.LATENCY, 0, Long.MAX_VALUE);
    }

    /** First measurements with the default noise guards. */
    public Batch(String sweepId, KernelKey key, List<BatchCandidate> candidates, MeasureSettings settings) {
        this(sweepId, key, candidates, settings, 0, Fidelity.DEFAULTS);
    }

    /** The longest one candidate's measurement may take: its timeout, plus its run when sustained. */
    public long allowanceMs() {
        return settings.timeoutMs() + (sustained() ? (long) Math.ceil(sustainedSeconds * 1000) : 0);
    }

    /** Whether each candidate runs without pause for {@link #sustainedSeconds}: a sustained sweep's finalists. */
    public boolean sustained() {
        return round > 0 && objective == Objective.SUSTAINED && sustainedSeconds > 0;
    }
}
