package org.tunefarm.coordinator.scale;

import java.util.Arrays;

/** Nearest-rank percentiles of a bench's samples, in the unit they were taken in. */
final class Percentiles {
    private Percentiles() {}

    /** The {@code p}-quantile (0 to 1) of the values, or NaN when there are none. */
    static double of(double[] values, double p) {
        if (values.length == 0) return Double.NaN;
        double[] s = values.clone();
        Arrays.sort(s);
        int rank = (int) Math.ceil(p * s.length);
        return s[Math.max(0, Math.min(s.length - 1, rank - 1))];
    }
}
