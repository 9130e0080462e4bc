package org.tunefarm.agent.harness;

import java.util.Arrays;
import java.util.Locale;

/**
 * Whether the sample times of one measurement drift upward after warm-up, as they do on a board
 * that heats up and lowers its clock while it measures. Two tests must agree: the last third's
 * median is more than {@link #MIN_SLOWDOWN} above the first third's (the drift matters), and
 * the Mann-Kendall trend statistic is significant at one-sided 1% ({@link #MIN_Z}: the drift is
 * not chance). Medians and ranks ignore the odd slow sample that another process caused, and
 * steady series, however noisy, pass (checked on synthetic series in the tests: under 1% false
 * alarms for CVs up to 10% and with interference spikes).
 */
public final class DriftCheck {
    /** Fewer samples say nothing about a trend. */
    public static final int MIN_SAMPLES = 6;
    /** The last third must be this much slower than the first (5%). */
    public static final double MIN_SLOWDOWN = 0.05;
    /** One-sided z for p = 0.01. */
    public static final double MIN_Z = 2.326;

    private DriftCheck() {}

    /** Why the samples, in the order taken, drift upward; null when they do not. */
    public static String verdict(double[] samples) {
        int n = samples.length;
        if (n < MIN_SAMPLES) return null;
        int third = n / 3;
        double first = median(Arrays.copyOfRange(samples, 0, third));
        double last = median(Arrays.copyOfRange(samples, n - third, n));
        double slowdown = last / first - 1;
        if (!(slowdown > MIN_SLOWDOWN)) return null;
        double z = mannKendallZ(samples);
        if (!(z > MIN_Z)) return null;
        return String.format(Locale.ROOT, "sample times drift upward: the last third %.0f%% slower than the first (Mann-Kendall z %.1f over %d samples)",
                slowdown * 100, z, n);
    }

    /** The Mann-Kendall statistic S, normalised (with continuity correction, ties ignored): positive for an upward trend. */
    static double mannKendallZ(double[] x) {
        int n = x.length;
        long s = 0;
        for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) s += Double.compare(x[j], x[i]) > 0 ? 1 : x[j] < x[i] ? -1 : 0;
        double var = n * (n - 1.0) * (2.0 * n + 5) / 18;
        return s == 0 ? 0 : (s - Math.signum(s)) / Math.sqrt(var);
    }

    private static double median(double[] v) {
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
