package org.tunefarm.agent.harness;

/**
 * How hard the harness works to measure one candidate. Validated on construction, naming the field.
 *
 * @param minSamples      timed samples to take after warm-up (at least 1)
 * @param minSampleMs     each sample times enough back-to-back calls to last at least this long, so
 *                        timer resolution and call overhead vanish (TVM's {@code min_repeat_ms})
 * @param maxWarmupMs     warm-up stops here even if the per-call time never settled
 * @param steadyTolerance warm-up ends when the last three samples' per-call times differ by at most
 *                        this fraction of the smallest (0.05 = 5%)
 * @param timeoutMs       per-candidate allowance, verification included (and, for a batch's first
 *                        candidate, building the workload); the supervisor kills a worker that
 *                        exceeds it, and the harness gives up by itself at 80% of it
 * @param seed            seed of the generated inputs and of the batch's run order
 */
public record MeasureSettings(int minSamples, double minSampleMs, int maxWarmupMs, double steadyTolerance, long timeoutMs, long seed) {

    /** Samples per candidate when nothing is configured. */
    public static final MeasureSettings DEFAULTS = new MeasureSettings(10, 10.0, 1000, 0.05, 30_000, 42);

    public MeasureSettings {
        if (minSamples < 1) throw new IllegalArgumentException("minSamples must be at least 1, got " + minSamples);
        if (!(minSampleMs > 0) || Double.isInfinite(minSampleMs)) throw new IllegalArgumentException("minSampleMs must be a positive number, got " + minSampleMs);
        if (maxWarmupMs < 0) throw new IllegalArgumentException("maxWarmupMs must not be negative, got " + maxWarmupMs);
        if (!(steadyTolerance >= 0) || Double.isInfinite(steadyTolerance)) throw new IllegalArgumentException("steadyTolerance must be a non-negative number, got " + steadyTolerance);
        if (timeoutMs < 1) throw new IllegalArgumentException("timeoutMs must be at least 1, got " + timeoutMs);
        if (minSampleMs >= timeoutMs) throw new IllegalArgumentException("minSampleMs (" + minSampleMs + ") must be less than timeoutMs (" + timeoutMs + ")");
    }

    public MeasureSettings withMinSamples(int v) { return new MeasureSettings(v, minSampleMs, maxWarmupMs, steadyTolerance, timeoutMs, seed); }

    public MeasureSettings withMinSampleMs(double v) { return new MeasureSettings(minSamples, v, maxWarmupMs, steadyTolerance, timeoutMs, seed); }

    public MeasureSettings withMaxWarmupMs(int v) { return new MeasureSettings(minSamples, minSampleMs, v, steadyTolerance, timeoutMs, seed); }

    public MeasureSettings withSteadyTolerance(double v) { return new MeasureSettings(minSamples, minSampleMs, maxWarmupMs, v, timeoutMs, seed); }

    public MeasureSettings withTimeoutMs(long v) { return new MeasureSettings(minSamples, minSampleMs, maxWarmupMs, steadyTolerance, v, seed); }

    public MeasureSettings withSeed(long v) { return new MeasureSettings(minSamples, minSampleMs, maxWarmupMs, steadyTolerance, timeoutMs, v); }
}
