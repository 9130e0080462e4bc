package org.tunefarm.protocol;

import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Objective;

/**
 * A batch of candidates lent to one agent until {@code deadline} (epoch ms). Results are matched
 * to the lease; when it expires, or its agent vanishes, the unreported candidates go back to the queue.
 *
 * @param round    0 for a search's candidates, measured one after another in a shuffled order; 1 and
 *                 up for a search's finalists, measured interleaved (A B C A B C ...) in one worker
 *                 and recorded with this round
 * @param fidelity the sweep's noise guards; null (from an older coordinator) means the defaults
 * @param objective what the sweep tunes for; null (from an older coordinator) means latency
 * @param sustainedSeconds for a sustained sweep's finalists, how long each runs continuously before
 *                 its sustained time is taken; 0 otherwise
 * @param reportEveryMs the least time between two of this lease's reports that carry results: what
 *                 is taken meanwhile goes in the next one, so a large farm gets fewer, larger reports
 *                 (the farm sets it from its size); 0 (and from an older coordinator) sends each
 *                 result as soon as no report is out. The last results of a lease are never held back.
 */
public record Lease(String leaseId, String sweepId, String agentId, KernelKey key, List<Candidate> candidates,
                    MeasureSettings measure, long deadline, int round, Fidelity fidelity, Objective objective, double sustainedSeconds,
                    long reportEveryMs) {

    /** The longest pace a farm may ask for: results wait on a board no longer than this. */
    public static final long MAX_REPORT_EVERY_MS = 5_000;

    public Lease {
        if (fidelity == null) fidelity = Fidelity.DEFAULTS;
        if (objective == null) objective = Objective.LATENCY;
        if (!(sustainedSeconds >= 0) || sustainedSeconds > 3600) throw new IllegalArgumentException("sustainedSeconds must be in [0, 3600], got " + sustainedSeconds);
        if (reportEveryMs < 0 || reportEveryMs > MAX_REPORT_EVERY_MS) {
            throw new IllegalArgumentException("reportEveryMs must be in [0, " + MAX_REPORT_EVERY_MS + "], got " + reportEveryMs);
        }
    }

    /** A lease whose results are reported as soon as no report is out. */
    public Lease(String leaseId, String sweepId, String agentId, KernelKey key, List<Candidate> candidates,
                 MeasureSettings measure, long deadline, int round, Fidelity fidelity, Objective objective, double sustainedSeconds) {
        this(leaseId, sweepId, agentId, key, candidates, measure, deadline, round, fidelity, objective, sustainedSeconds, 0);
    }

    /** A lease that tunes for latency. */
    public Lease(String leaseId, String sweepId, String agentId, KernelKey key, List<Candidate> candidates,
                 MeasureSettings measure, long deadline, int round, Fidelity fidelity) {
        this(leaseId, sweepId, agentId, key, candidates, measure, deadline, round, fidelity, Objective.LATENCY, 0);
    }

    /** A lease of first measurements with the default noise guards. */
    public Lease(String leaseId, String sweepId, String agentId, KernelKey key, List<Candidate> candidates, MeasureSettings measure, long deadline) {
        this(leaseId, sweepId, agentId, key, candidates, measure, deadline, 0, Fidelity.DEFAULTS);
    }

    /** Whether the agent measures the candidates interleaved, as finalists. */
    public boolean interleaved() {
        return round > 0;
    }

    /**
     * One configuration to measure. {@code index} is its place in the sweep's space;
     * {@link #BASELINE} marks the family's default configuration, measured for the speedup.
     */
    public record Candidate(long index, Map<String, Object> params) {
        public static final long BASELINE = -1;
    }
}
