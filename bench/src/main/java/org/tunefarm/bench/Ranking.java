package org.tunefarm.bench;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * How much two measurements of the same items agree on their order. Items are positions
 * 0..n-1 in both arrays; lower value means faster (a median time), so rank 0 is the fastest.
 */
final class Ranking {

    private Ranking() {}

    /** Rank of each item, 0 for the smallest value; ties keep the item order, so ranks are a permutation. */
    static int[] ranks(double[] values) {
        Integer[] order = IntStream.range(0, values.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> values[i]).thenComparingInt(i -> i));
        int[] rank = new int[values.length];
        for (int r = 0; r < order.length; r++) rank[order[r]] = r;
        return rank;
    }

    /**
     * Kendall's tau-b between two measurements of the same items: 1 when they order every pair
     * alike, -1 when they order every pair oppositely. Ties in either (rare for timings) count as
     * neither concordant nor discordant, with the tau-b correction, so a constant column gives NaN.
     */
    static double kendallTau(double[] x, double[] y) {
        if (x.length != y.length) throw new IllegalArgumentException("different lengths: " + x.length + " and " + y.length);
        if (x.length < 2) throw new IllegalArgumentException("need at least two items, got " + x.length);
        long concordant = 0, discordant = 0, tiesX = 0, tiesY = 0;
        // n is at most a few hundred items here: the O(n^2) definition is clearer than Knight's algorithm.
        for (int i = 0; i < x.length; i++) {
            for (int j = i + 1; j < x.length; j++) {
                int sx = Double.compare(x[i], x[j]), sy = Double.compare(y[i], y[j]);
                if (sx == 0 && sy == 0) continue;
                if (sx == 0) tiesX++;
                else if (sy == 0) tiesY++;
                else if (sx == sy) concordant++;
                else discordant++;
            }
        }
        double denominator = Math.sqrt((double) (concordant + discordant + tiesX) * (concordant + discordant + tiesY));
        return denominator == 0 ? Double.NaN : (concordant - discordant) / denominator;
    }

    /** The largest number of places any item moved between the two rankings. */
    static int maxRankShift(double[] x, double[] y) {
        if (x.length != y.length) throw new IllegalArgumentException("different lengths: " + x.length + " and " + y.length);
        int[] rx = ranks(x), ry = ranks(y);
        int worst = 0;
        for (int i = 0; i < rx.length; i++) worst = Math.max(worst, Math.abs(rx[i] - ry[i]));
        return worst;
    }

    /** Median of the values (mean of the middle two for an even count). */
    static double median(double[] values) {
        if (values.length == 0) throw new IllegalArgumentException("no values");
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
