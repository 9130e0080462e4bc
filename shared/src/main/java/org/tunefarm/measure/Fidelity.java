package org.tunefarm.measure;

/**
 * How a sweep guards its ranking against noise, beyond how each candidate is measured: a
 * measurement whose CV is over {@code maxCv} is re-taken (up to {@code maxRetakes} times) before
 * it can win, and when a search has spent its budget its {@code finalists} fastest candidates
 * are measured again, interleaved, on one board and, when the class has another, on a second.
 * Part of the sweep spec's {@code measure} section and of every lease.
 */
public record Fidelity(double maxCv, int maxRetakes, int finalists) {

    public static final Fidelity DEFAULTS = new Fidelity(0.05, 2, 3);

    public Fidelity {
        if (!(maxCv > 0) || maxCv > 10) throw new IllegalArgumentException("maxCv must be in (0, 10], got " + maxCv);
        if (maxRetakes < 0 || maxRetakes > 10) throw new IllegalArgumentException("maxRetakes must be in [0, 10], got " + maxRetakes);
        if (finalists < 0 || finalists > 100) throw new IllegalArgumentException("finalists must be in [0, 100], got " + finalists);
    }

    /** Whether an OK measurement is too noisy to stand as it is. */
    public boolean tooNoisy(Stats stats) {
        return stats != null && stats.cv() > maxCv;
    }
}
