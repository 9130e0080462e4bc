package org.tunefarm.agent.harness;

import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;
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
 */
public record Batch(String sweepId, KernelKey key, List<BatchCandidate> candidates, MeasureSettings settings, int round, Fidelity fidelity) {
    public Batch {
        Objects.requireNonNull(sweepId, "sweepId");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(settings, "settings");
        candidates = List.copyOf(candidates);
        if (fidelity == null) fidelity = Fidelity.DEFAULTS;
    }

    /** First measurements with the default noise guards. */
    public Batch(String sweepId, KernelKey key, List<BatchCandidate> candidates, MeasureSettings settings) {
        this(sweepId, key, candidates, settings, 0, Fidelity.DEFAULTS);
    }
}
