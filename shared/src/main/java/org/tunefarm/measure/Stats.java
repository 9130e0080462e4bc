package org.tunefarm.measure;

import java.util.Arrays;

/**
 * Timing statistics over repeated samples, in nanoseconds per call. Each sample timed
 * {@code callsPerSample} back-to-back calls and was divided by that count.
 */
public record Stats(double minNs, double medianNs, double meanNs, double stdevNs, double cv, int samples, int callsPerSample) {

    public static Stats of(double[] perCallNs, int callsPerSample) {
        if (perCallNs.length == 0) throw new IllegalArgumentException("no samples");
        double[] s = perCallNs.clone();
        Arrays.sort(s);
        int n = s.length;
        double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        double mean = 0;
        for (double v : s) mean += v;
        mean /= n;
        double var = 0;
        for (double v : s) var += (v - mean) * (v - mean);
        double stdev = n > 1 ? Math.sqrt(var / (n - 1)) : 0;
        return new Stats(s[0], median, mean, stdev, mean > 0 ? stdev / mean : 0, n, callsPerSample);
    }
}
