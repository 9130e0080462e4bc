package org.tunefarm.measure;

import java.util.Arrays;

/**
 * Timing statistics over repeated samples, in nanoseconds per call. Each sample timed
 * {@code callsPerSample} back-to-back calls and was divided by that count. {@code outliers}
 * samples were set aside as interference (see {@link #withoutInterference}) and are not in the
 * other figures; {@code samples} counts the ones kept.
 */
public record Stats(double minNs, double medianNs, double meanNs, double stdevNs, double cv, int samples, int callsPerSample, int outliers) {

    /**
     * A sample is interference when it lies this many robust standard deviations (1.4826 x the
     * median absolute deviation) above the median, and at least {@link #MIN_FENCE_SHARE} above it.
     */
    public static final double FENCE_SIGMAS = 3.0;
    /** Below this share over the median a slow sample is ordinary jitter, however tight the rest are. */
    public static final double MIN_FENCE_SHARE = 0.01;

    /** Statistics with no sample set aside (records written before outliers were counted). */
    public Stats(double minNs, double medianNs, double meanNs, double stdevNs, double cv, int samples, int callsPerSample) {
        this(minNs, medianNs, meanNs, stdevNs, cv, samples, callsPerSample, 0);
    }

    /** Statistics over every sample. */
    public static Stats of(double[] perCallNs, int callsPerSample) {
        return over(sorted(perCallNs), perCallNs.length, callsPerSample, 0);
    }

    /**
     * Statistics over the samples that another process did not slow down. Interference (a time
     * slice lost to a neighbour, an interrupt, a page fault storm) only ever adds time, so the
     * suspects are far above the median, never below; they are counted in {@code outliers}. At
     * least half the samples are always kept, since the fence lies above the median.
     */
    public static Stats withoutInterference(double[] perCallNs, int callsPerSample) {
        double[] s = sorted(perCallNs);
        double fence = fence(s);
        int kept = 0;
        while (kept < s.length && s[kept] <= fence) kept++;
        return over(s, kept, callsPerSample, s.length - kept);
    }

    /** These statistics with {@code more} samples set aside before they were computed (preempted, say). */
    public Stats settingAside(int more) {
        return new Stats(minNs, medianNs, meanNs, stdevNs, cv, samples, callsPerSample, outliers + more);
    }

    /** The per-call time above which a sample counts as interference. */
    public static double fence(double[] sortedNs) {
        double median = median(sortedNs, sortedNs.length);
        double[] deviations = new double[sortedNs.length];
        for (int i = 0; i < deviations.length; i++) deviations[i] = Math.abs(sortedNs[i] - median);
        Arrays.sort(deviations);
        double robustSigma = 1.4826 * median(deviations, deviations.length);
        return median + Math.max(FENCE_SIGMAS * robustSigma, MIN_FENCE_SHARE * median);
    }

    private static double[] sorted(double[] perCallNs) {
        if (perCallNs.length == 0) throw new IllegalArgumentException("no samples");
        double[] s = perCallNs.clone();
        Arrays.sort(s);
        return s;
    }

    /** Statistics over the first {@code n} of the sorted samples. */
    private static Stats over(double[] s, int n, int callsPerSample, int outliers) {
        double median = median(s, n);
        double mean = 0;
        for (int i = 0; i < n; i++) mean += s[i];
        mean /= n;
        double var = 0;
        for (int i = 0; i < n; i++) var += (s[i] - mean) * (s[i] - mean);
        double stdev = n > 1 ? Math.sqrt(var / (n - 1)) : 0;
        return new Stats(s[0], median, mean, stdev, mean > 0 ? stdev / mean : 0, n, callsPerSample, outliers);
    }

    private static double median(double[] s, int n) {
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
