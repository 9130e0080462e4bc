package org.tunefarm.agent.harness;

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
 */
public record Batch(String sweepId, KernelKey key, List<BatchCandidate> candidates, MeasureSettings settings) {
    public Batch {
        Objects.requireNonNull(sweepId, "sweepId");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(settings, "settings");
        candidates = List.copyOf(candidates);
    }
}
