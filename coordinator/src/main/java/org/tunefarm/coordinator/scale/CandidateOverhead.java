package org.tunefarm.coordinator.scale;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tunefarm.measure.Measurement;

/**
 * Where an agent's time goes between candidates, read from the records alone (each record's
 * {@code startedAt} and {@code finishedAt}, the agent's own clock in ms). A candidate's own time is
 * its timed samples: (samples + outliers) x callsPerSample x the mean per call. Its overhead is the
 * time from its start to the next candidate's start on the same agent, less its own time: the
 * harness's work around the samples (warm-up, checking the answer, reading sensors) plus the
 * farm's (the report's round trip, at a lease's end the closing report and the next pull).
 * The farm's share alone ({@code farmP50Ms}) takes off the harness's two untimed calls as well:
 * the first, checked against the reference, and the calibration's, which is one call when a call
 * outlasts {@code minSampleMs} and warm-up is off ({@code maxWarmupMs: 0}), as in bench farm's
 * real-agent sweep: what is left is the farm's and the harness's bookkeeping around the candidate.
 * An agent keeps one worker JVM while it measures one kernel and shape in a row ({@code KeptWorker})
 * and starts a fresh one for the next, whose code runs interpreted until the JIT has seen it often:
 * {@code farmColdP50Ms} is the farm's share over the first {@link #COLD_CANDIDATES} candidates of
 * each such run, {@code farmWarmP50Ms} over the rest.
 *
 * @param candidates records read
 * @param seconds    first start to last finish
 * @param ownP50Ms   a candidate's timed samples
 * @param spanP50Ms  {@code finishedAt - startedAt}
 * @param gapP50Ms   one candidate's finish to the next one's start on the same agent
 * @param overheadP50Ms start to next start, less the candidate's own time
 * @param farmP50Ms     start to next start, less the candidate's own time and two untimed calls
 * @param farmColdP50Ms the farm's share over each worker's first {@link #COLD_CANDIDATES} candidates; NaN when none
 * @param farmWarmP50Ms the farm's share over the later ones; NaN when none
 */
public record CandidateOverhead(int agents, long candidates, double seconds, double ownP50Ms, double spanP50Ms, double spanP90Ms,
                                double gapP50Ms, double gapP90Ms, double overheadP50Ms, double overheadP90Ms, double farmP50Ms, double farmP90Ms,
                                double farmColdP50Ms, double farmWarmP50Ms) {

    /** Candidates a fresh worker measures before it counts as warm: a few hundred calls compile the harness's paths. */
    static final int COLD_CANDIDATES = 64;

    static CandidateOverhead of(List<Measurement> records) {
        Map<String, List<Measurement>> byAgent = new HashMap<>();
        for (Measurement m : records) byAgent.computeIfAbsent(m.agentId(), a -> new ArrayList<>()).add(m);
        List<Double> own = new ArrayList<>();
        List<Double> span = new ArrayList<>();
        List<Double> gap = new ArrayList<>();
        List<Double> overhead = new ArrayList<>();
        List<Double> farm = new ArrayList<>();
        List<Double> cold = new ArrayList<>();
        List<Double> warm = new ArrayList<>();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (List<Measurement> ms : byAgent.values()) {
            ms.sort(Comparator.comparingLong(Measurement::startedAt));
            int sinceStart = 0; // candidates of this key in a row: the kept worker's age
            for (int i = 0; i < ms.size(); i++) {
                Measurement m = ms.get(i);
                first = Math.min(first, m.startedAt());
                last = Math.max(last, m.finishedAt());
                double ownMs = ownMs(m);
                own.add(ownMs);
                span.add((double) (m.finishedAt() - m.startedAt()));
                if (i + 1 < ms.size()) {
                    Measurement next = ms.get(i + 1);
                    gap.add((double) (next.startedAt() - m.finishedAt()));
                    overhead.add(next.startedAt() - m.startedAt() - ownMs);
                    double share = next.startedAt() - m.startedAt() - ownMs - 2 * callMs(m);
                    farm.add(share);
                    (sinceStart < COLD_CANDIDATES ? cold : warm).add(share);
                }
                sinceStart = i + 1 < ms.size() && ms.get(i + 1).key().equals(m.key()) ? sinceStart + 1 : 0;
            }
        }
        return new CandidateOverhead(byAgent.size(), records.size(), records.isEmpty() ? 0 : FarmRun.round((last - first) / 1000.0),
                p(own, 0.5), p(span, 0.5), p(span, 0.9), p(gap, 0.5), p(gap, 0.9), p(overhead, 0.5), p(overhead, 0.9), p(farm, 0.5), p(farm, 0.9),
                p(cold, 0.5), p(warm, 0.5));
    }

    /** The candidate's timed samples, in ms; 0 when it has no statistics (it failed). */
    private static double ownMs(Measurement m) {
        if (m.stats() == null) return 0;
        return (m.stats().samples() + m.stats().outliers()) * (double) m.stats().callsPerSample() * m.stats().meanNs() / 1e6;
    }

    /** One call of the candidate, in ms (its median); 0 when it has no statistics. */
    private static double callMs(Measurement m) {
        return m.stats() == null ? 0 : m.stats().medianNs() / 1e6;
    }

    private static double p(List<Double> xs, double q) {
        return FarmRun.round(Percentiles.of(xs.stream().mapToDouble(Double::doubleValue).toArray(), q));
    }
}
