package org.tunefarm.protocol;

import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;

/**
 * A batch of candidates lent to one agent until {@code deadline} (epoch ms). Results are matched
 * to the lease; when it expires, or its agent vanishes, the unreported candidates go back to the queue.
 *
 * @param round    0 for a search's candidates, measured one after another in a shuffled order; 1 and
 *                 up for a search's finalists, measured interleaved (A B C A B C ...) in one worker
 *                 and recorded with this round
 * @param fidelity the sweep's noise guards; null (from an older coordinator) means the defaults
 */
public record Lease(String leaseId, String sweepId, String agentId, KernelKey key, List<Candidate> candidates,
                    MeasureSettings measure, long deadline, int round, Fidelity fidelity) {

    public Lease {
        if (fidelity == null) fidelity = Fidelity.DEFAULTS;
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
