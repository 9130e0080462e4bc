package org.tunefarm.coordinator.sweep;

import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Objective;
import org.tunefarm.measure.Status;

/**
 * What a {@link Search} learns from one record: which candidate, in which round, how it ended, its
 * median and its figure for the sweep's objective. A sweep restored before its class's searches exist keeps these, not the records
 * (parameters, statistics, sensors and detail stay in the log, and their best in the table).
 *
 * @param agentId  who measured it, kept for finalist rounds only (a round's board), else null
 * @param medianNs the median of an OK measurement with statistics, else NaN
 * @param figure   the sweep's objective's figure ({@link Objective#figure}), NaN where the record lacks it
 */
public record Outcome(KernelKey key, long index, int round, String agentId, Status status, double medianNs, double figure) {

    /**
     * The outcome of a record; {@code key} is the sweep's own key equal to the record's, so records
     * share it; {@code objective} is the sweep's.
     */
    static Outcome of(Measurement m, KernelKey key, Objective objective) {
        double median = m.status() == Status.OK && m.stats() != null ? m.stats().medianNs() : Double.NaN;
        Double figure = objective.figure(m);
        return new Outcome(key, m.index(), m.round(), m.round() > 0 ? m.agentId() : null, m.status(), median,
                figure == null ? Double.NaN : figure);
    }

    boolean ok() {
        return status == Status.OK && !Double.isNaN(medianNs);
    }
}
