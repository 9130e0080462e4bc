package org.tunefarm.measure;

/**
 * How the harness measures each candidate of a batch. Sent by the coordinator with every lease,
 * so every board of a sweep measures the same way.
 *
 * @param minSamples     timed samples per candidate, at least
 * @param minSampleMs    each sample lasts at least this long (calls per sample grow until it does,
 *                       as TVM's min_repeat_ms), so timer error is dwarfed
 * @param maxWarmupMs    warm-up stops when the per-call time is steady or after this long
 * @param steadyTolerance relative spread under which warm-up samples count as steady
 * @param timeoutMs      a candidate running longer is killed and recorded TIMEOUT
 * @param seed           inputs are generated from this seed; the run order is shuffled with it
 */
public record MeasureSettings(int minSamples, double minSampleMs, long maxWarmupMs, double steadyTolerance, long timeoutMs, long seed) {

    public static final MeasureSettings DEFAULT = new MeasureSettings(5, 20, 2_000, 0.05, 30_000, 42);

    /** @throws IllegalArgumentException naming the field, prefixed with {@code measure.} */
    public MeasureSettings validate() {
        if (minSamples < 1 || minSamples > 1000) throw new IllegalArgumentException("measure.minSamples must be in [1, 1000], got " + minSamples);
        if (!(minSampleMs >= 0.01 && minSampleMs <= 60_000)) throw new IllegalArgumentException("measure.minSampleMs must be in [0.01, 60000], got " + minSampleMs);
        if (maxWarmupMs < 0 || maxWarmupMs > 600_000) throw new IllegalArgumentException("measure.maxWarmupMs must be in [0, 600000], got " + maxWarmupMs);
        if (!(steadyTolerance > 0 && steadyTolerance < 1)) throw new IllegalArgumentException("measure.steadyTolerance must be in (0, 1), got " + steadyTolerance);
        if (timeoutMs < 100 || timeoutMs > 3_600_000) throw new IllegalArgumentException("measure.timeoutMs must be in [100, 3600000], got " + timeoutMs);
        return this;
    }
}
