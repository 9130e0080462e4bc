package org.tunefarm.measure;

/**
 * How a sweep guards its ranking against noise, beyond how each candidate is measured: a
 * measurement whose CV is over {@code maxCv} is re-taken (up to {@code maxRetakes} times) before
 * it can win, and when a search has spent its budget its {@code finalists} fastest candidates
 * are measured again, interleaved, on one board and, when the class has another, on a second.
 * Part of the sweep spec's {@code measure} section and of every lease.
 *
 * @param cooldownTimeoutMs the longest an agent waits, before a batch, for its device to cool to its
 *                          start temperature (0: it does not wait); the lease's deadline allows for
 *                          it. Null (an older sweep or coordinator) means {@link #DEFAULT_COOLDOWN_TIMEOUT_MS}
 */
public record Fidelity(double maxCv, int maxRetakes, int finalists, Long cooldownTimeoutMs) {

    /** Two minutes: a passively cooled board falls some 10 °C in about that. */
    public static final long DEFAULT_COOLDOWN_TIMEOUT_MS = 120_000;
    public static final long MAX_COOLDOWN_TIMEOUT_MS = 3_600_000;

    public static final Fidelity DEFAULTS = new Fidelity(0.05, 2, 3);

    public Fidelity {
        if (!(maxCv > 0) || maxCv > 10) throw new IllegalArgumentException("maxCv must be in (0, 10], got " + maxCv);
        if (maxRetakes < 0 || maxRetakes > 10) throw new IllegalArgumentException("maxRetakes must be in [0, 10], got " + maxRetakes);
        if (finalists < 0 || finalists > 100) throw new IllegalArgumentException("finalists must be in [0, 100], got " + finalists);
        if (cooldownTimeoutMs == null) cooldownTimeoutMs = DEFAULT_COOLDOWN_TIMEOUT_MS;
        if (cooldownTimeoutMs < 0 || cooldownTimeoutMs > MAX_COOLDOWN_TIMEOUT_MS) {
            throw new IllegalArgumentException("cooldownTimeoutMs must be in [0, " + MAX_COOLDOWN_TIMEOUT_MS + "], got " + cooldownTimeoutMs);
        }
    }

    /** Noise guards with the default cooldown timeout. */
    public Fidelity(double maxCv, int maxRetakes, int finalists) {
        this(maxCv, maxRetakes, finalists, DEFAULT_COOLDOWN_TIMEOUT_MS);
    }

    /** Whether an OK measurement is too noisy to stand as it is. */
    public boolean tooNoisy(Stats stats) {
        return stats != null && stats.cv() > maxCv;
    }
}
