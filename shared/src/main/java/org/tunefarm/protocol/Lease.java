package org.tunefarm.protocol;

import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;

/**
 * A batch of candidates lent to one agent until {@code deadline} (epoch ms). Results are matched
 * to the lease; when it expires, or its agent vanishes, the unreported candidates go back to the queue.
 */
public record Lease(String leaseId, String sweepId, String agentId, KernelKey key, List<Candidate> candidates,
                    MeasureSettings measure, long deadline) {

    /**
     * One configuration to measure. {@code index} is its place in the sweep's space;
     * {@link #BASELINE} marks the family's default configuration, measured for the speedup.
     */
    public record Candidate(long index, Map<String, Object> params) {
        public static final long BASELINE = -1;
    }
}
