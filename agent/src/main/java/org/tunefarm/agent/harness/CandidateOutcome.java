package org.tunefarm.agent.harness;

import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;

/**
 * How measuring one candidate ended: what a worker sends back. Failures are values here, never
 * exceptions.
 *
 * @param status   how it ended
 * @param stats    timing, present only when OK
 * @param maxError largest difference from the reference on the verified call; null when it never got that far
 * @param detail   why it failed (exception, stderr tail), empty when OK
 * @param window   when the timed samples ran and how many calls they timed; null when none ran
 * @param drift    why the sample times drift upward ({@link DriftCheck}), or null
 * @param sustainedNs time per call over the last part of a sustained run ({@link Harness#sustain}), else null
 */
public record CandidateOutcome(Status status, Stats stats, Double maxError, String detail, SampleWindow window, String drift, Double sustainedNs) {

    /** Details are kept short: they travel in every record. */
    static final int MAX_DETAIL = 2000;

    public CandidateOutcome {
        java.util.Objects.requireNonNull(status, "status");
        detail = detail == null ? "" : detail.length() > MAX_DETAIL ? detail.substring(detail.length() - MAX_DETAIL) : detail;
    }

    public CandidateOutcome(Status status, Stats stats, Double maxError, String detail) {
        this(status, stats, maxError, detail, null, null, null);
    }

    /** This outcome with when its samples ran and whether their times drift. */
    public CandidateOutcome sampled(SampleWindow w, String d) {
        return new CandidateOutcome(status, stats, maxError, detail, w, d, sustainedNs);
    }

    /** This outcome of a sustained run. */
    public CandidateOutcome sustained(double ns) {
        return new CandidateOutcome(status, stats, maxError, detail, window, drift, ns);
    }

    /** This outcome with {@code more} after its detail. */
    public CandidateOutcome noting(String more) {
        return new CandidateOutcome(status, stats, maxError, detail.isEmpty() ? more : detail + "; " + more, window, drift, sustainedNs);
    }

    public static CandidateOutcome ok(Stats stats, double maxError) {
        return new CandidateOutcome(Status.OK, stats, maxError, "");
    }

    public static CandidateOutcome failed(Status status, Double maxError, String detail) {
        return new CandidateOutcome(status, null, maxError, detail);
    }

    public static CandidateOutcome failed(Status status, String detail) {
        return failed(status, null, detail);
    }

    /** A throwable as a short text: its class, message and first frames. */
    public static String describe(Throwable t) {
        StringBuilder b = new StringBuilder(t.toString());
        StackTraceElement[] frames = t.getStackTrace();
        for (int i = 0; i < Math.min(5, frames.length); i++) b.append("\n\tat ").append(frames[i]);
        if (t.getCause() != null && t.getCause() != t) b.append("\nCaused by: ").append(t.getCause());
        return b.toString();
    }
}
