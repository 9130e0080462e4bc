package org.tunefarm.agent.worker;

import org.tunefarm.agent.harness.CandidateOutcome;

/** One line a worker writes to stdout: the outcome of request {@code seq}, or of each of its group. */
public record WorkerResponse(long seq, CandidateOutcome outcome, java.util.List<CandidateOutcome> outcomes) {

    public WorkerResponse(long seq, CandidateOutcome outcome) {
        this(seq, outcome, null);
    }
}
