package org.tunefarm.agent.worker;

import org.tunefarm.agent.harness.CandidateOutcome;

/** One line a worker writes to stdout: the outcome of request {@code seq}. */
public record WorkerResponse(long seq, CandidateOutcome outcome) {}
