package org.tunefarm.coordinator.replay;

import java.util.Arrays;
import java.util.List;

/**
 * Random search's exact behaviour on a recorded space, computed rather than simulated. Drawing n
 * of N points without replacement, the best point drawn has rank k (1 = fastest of the M that
 * ran; the failed ones rank after them) with probability C(N-k, n-1) / C(N, n): it is drawn and
 * the n-1 others come from the N-k ranked after it.
 */
public final class RandomExpectation {
    private final double[] sorted; // OK times ascending
    private final int n;           // all valid points, failed included

    /** @param okTimes times of the points that ran; @param size all valid points, failed ones included */
    public RandomExpectation(double[] okTimes, int size) {
        this.sorted = okTimes.clone();
        Arrays.sort(this.sorted);
        this.n = size;
        if (size < sorted.length) throw new IllegalArgumentException("size " + size + " < " + sorted.length + " OK points");
    }

    /** P(best drawn has rank k), k = 1..M, after {@code draws} draws; index k-1. */
    private double[] rankProbabilities(int draws) {
        double[] p = new double[sorted.length];
        if (draws <= 0 || sorted.length == 0) return p;
        if (draws >= n) {
            p[0] = 1;
            return p;
        }
        double pk = (double) draws / n; // k = 1: C(N-1, n-1) / C(N, n) = n / N
        for (int k = 1; k <= sorted.length; k++) {
            p[k - 1] = pk;
            pk *= (double) (n - k - draws + 1) / (n - k); // C(N-k-1, n-1) / C(N-k, n-1)
            if (pk <= 0) break;
        }
        return p;
    }

    /** E[fraction of optimum] after {@code draws} draws. */
    public double meanFraction(int draws) {
        double[] p = rankProbabilities(draws);
        double e = 0;
        for (int k = 0; k < p.length; k++) e += p[k] * sorted[0] / sorted[k];
        return e;
    }

    /** Median of the fraction of optimum after {@code draws} draws (0 when finding nothing is as likely as not). */
    public double medianFraction(int draws) {
        double[] p = rankProbabilities(draws);
        double cum = 0;
        for (int k = 0; k < p.length; k++) {
            cum += p[k];
            if (cum >= 0.5) return sorted[0] / sorted[k];
        }
        return 0;
    }

    /** Median number of draws until the fraction reaches {@code target}: the least n with P(reached by n) >= 1/2. */
    public int medianDrawsTo(double target) {
        int good = 0;
        while (good < sorted.length && sorted[0] / sorted[good] >= target - 1e-12) good++;
        if (good == 0) return -1;
        double miss = 1; // P(no good point in the first d draws) = prod (N-G-j)/(N-j)
        for (int d = 1; d <= n; d++) {
            miss *= (double) (n - good - (d - 1)) / (n - (d - 1));
            if (1 - miss >= 0.5) return d;
        }
        return n;
    }

    /** The whole report, at the given checkpoints. */
    public Report report(String space, List<Integer> checkpoints) {
        List<Report.Checkpoint> cs = checkpoints.stream().map(c -> new Report.Checkpoint(c, meanFraction(c), medianFraction(c))).toList();
        int to95 = medianDrawsTo(0.95), to98 = medianDrawsTo(0.98);
        return new Report("random-expected", space, n, sorted.length > 0 ? sorted[0] : Double.POSITIVE_INFINITY, cs,
                to95 < 0 ? null : (double) to95, to98 < 0 ? null : (double) to98, 0);
    }
}
