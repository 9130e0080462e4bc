package org.tunefarm.measure;

/**
 * How hard the harness works to measure one candidate. Sent by the coordinator with every lease, so
 * every board of a sweep measures the same way. Validated on construction; a message starts with
 * the name of the field at fault.
 *
 * @param minSamples      timed samples to take after warm-up
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

    /** What a sweep gets when it says nothing. */
    public static final MeasureSettings DEFAULTS = new MeasureSettings(10, 10.0, 1000, 0.05, 30_000, 42);

    public MeasureSettings {
        if (minSamples < 1 || minSamples > 1000) throw new IllegalArgumentException("minSamples must be in [1, 1000], got " + minSamples);
        if (!(minSampleMs > 0) || minSampleMs > 60_000) throw new IllegalArgumentException("minSampleMs must be in (0, 60000], got " + minSampleMs);
        if (maxWarmupMs < 0 || maxWarmupMs > 600_000) throw new IllegalArgumentException("maxWarmupMs must be in [0, 600000], got " + maxWarmupMs);
        if (!(steadyTolerance >= 0) || steadyTolerance >= 1) throw new IllegalArgumentException("steadyTolerance must be in [0, 1), got " + steadyTolerance);
        if (timeoutMs < 1 || timeoutMs > 3_600_000) throw new IllegalArgumentException("timeoutMs must be in [1, 3600000], got " + timeoutMs);
        if (minSampleMs >= timeoutMs) throw new IllegalArgumentException("minSampleMs (" + minSampleMs + ") must be less than timeoutMs (" + timeoutMs + ")");
    }

    public MeasureSettings withMinSamples(int v) { return new MeasureSettings(v, minSampleMs, maxWarmupMs, steadyTolerance, timeoutMs, seed); }

    public MeasureSettings withMinSampleMs(double v) { return new MeasureSettings(minSamples, v, maxWarmupMs, steadyTolerance, timeoutMs, seed); }

    public MeasureSettings withMaxWarmupMs(int v) { return new MeasureSettings(minSamples, minSampleMs, v, steadyTolerance, timeoutMs, seed); }

    public MeasureSettings withSteadyTolerance(double v) { return new MeasureSettings(minSamples, minSampleMs, maxWarmupMs, v, timeoutMs, seed); }

    public MeasureSettings withTimeoutMs(long v) { return new MeasureSettings(minSamples, minSampleMs, maxWarmupMs, steadyTolerance, v, seed); }

    public MeasureSettings withSeed(long v) { return new MeasureSettings(minSamples, minSampleMs, maxWarmupMs, steadyTolerance, timeoutMs, v); }
}
