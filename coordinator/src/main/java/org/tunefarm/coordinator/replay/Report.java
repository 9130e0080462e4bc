package org.tunefarm.coordinator.replay;

import java.util.List;

/**
 * How one strategy did on one recorded space over several seeds. Fractions of optimum are
 * (best time in the space) / (best time found), 0 while nothing valid has been found.
 * {@code evaluationsTo95}/{@code 98} are medians over seeds; null when the median seed never got there.
 */
public record Report(String strategy, String space, int size, double optimum, List<Checkpoint> checkpoints,
                     Double evaluationsTo95, Double evaluationsTo98, double seconds) {

    /** Mean and median fraction of optimum over the seeds after {@code evaluations} results. */
    public record Checkpoint(int evaluations, double meanFraction, double medianFraction) {}

    /** The checkpoint at exactly {@code evaluations}, or null. */
    public Checkpoint at(int evaluations) {
        return checkpoints.stream().filter(c -> c.evaluations() == evaluations).findFirst().orElse(null);
    }
}
