package org.tunefarm.agent.harness;

import org.tunefarm.agent.kernels.KernelFamily;

/**
 * A candidate whose outcome is already known because it was measured elsewhere (a replayed
 * Kernel Tuner recording). The harness returns {@link #recorded()} as it is, without running,
 * verifying or timing anything, so a replayed time is never mistaken for one taken here: the
 * outcome's detail says where it came from.
 */
public interface RecordedCandidate extends KernelFamily.Candidate {

    /** The recorded outcome: OK with the recorded timing, or the recorded failure. */
    CandidateOutcome recorded();

    /** Nothing to run: the harness never calls this. */
    @Override default void run() {
        throw new UnsupportedOperationException("a recorded candidate is replayed, not run");
    }

    /** Nothing was computed, so nothing was checked. */
    @Override default double maxError() { return Double.NaN; }
}
