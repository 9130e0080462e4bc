package org.tunefarm.agent.harness;

import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;

/**
 * The noise guard every measurement passes: one whose CV is over {@link Fidelity#maxCv()} is taken
 * again, on the same warm worker, up to {@link Fidelity#maxRetakes()} times, before it can win.
 * Shared by the agent's batches and the fidelity benchmark, so the bench measures as the farm does.
 */
public final class Retakes {
    private Retakes() {}

    /** The final outcome and, when it was retaken, a note saying so for the record's detail. */
    public record Taken(CandidateOutcome outcome, int retakes, String note) {}

    public static Taken measure(Worker worker, KernelKey key, Map<String, Object> params, MeasureSettings settings, Fidelity fidelity) {
        return measure(() -> worker.measure(key, params, settings), fidelity);
    }

    /**
     * The guard around {@code take}, one measurement of the candidate per call: the agent's takes
     * of a candidate seen throttled each wait for the board to cool first, so a re-take is not
     * measured on a board the takes before it heated.
     */
    public static Taken measure(Supplier<CandidateOutcome> take, Fidelity fidelity) {
        CandidateOutcome outcome = take.get();
        int retakes = 0;
        // Formatted only for a note, when there is one: String.format on every measurement cost the board time between candidates.
        double firstCv = outcome.stats() == null ? Double.NaN : outcome.stats().cv();
        while (outcome.status() == Status.OK && fidelity.tooNoisy(outcome.stats()) && retakes < fidelity.maxRetakes()
                && !Thread.currentThread().isInterrupted()) {
            outcome = take.get();
            retakes++;
        }
        return new Taken(outcome, retakes, retakes == 0 ? outcome.detail() : note(retakes, firstCv, outcome, fidelity.maxCv()));
    }

    private static String note(int retakes, double firstCv, CandidateOutcome last, double maxCv) {
        String now = last.stats() == null ? last.status().toString() : "cv " + cv(last.stats().cv());
        boolean still = last.stats() != null && last.stats().cv() > maxCv;
        return "retaken " + retakes + "x: cv " + (Double.isNaN(firstCv) ? "" : cv(firstCv)) + " over " + cv(maxCv) + ", final " + now
                + (still ? " (still over: noisy board)" : "") + (last.detail().isEmpty() ? "" : "; " + last.detail());
    }

    private static String cv(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
