package org.tunefarm.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One variant's figures over a bench's interleaved repetitions (A B C, A B C, ...), or a ratio of
 * two variants per repetition. A repetition that failed is null, and makes every summary of the
 * series unknown: a failure shows as a failure in the figures, never as a slow or missing rank.
 */
final class Series {

    private final List<Double> values = new ArrayList<>();

    void add(Double v) {
        values.add(v);
    }

    /** Per repetition, {@code a / b}; null where either is. */
    static Series ratio(Series a, Series b) {
        Series r = new Series();
        for (int i = 0; i < Math.min(a.values.size(), b.values.size()); i++) {
            Double x = a.values.get(i), y = b.values.get(i);
            r.add(x == null || y == null || y == 0 ? null : x / y);
        }
        return r;
    }

    boolean complete() {
        return !values.isEmpty() && values.stream().allMatch(v -> v != null);
    }

    Double median() {
        if (!complete()) return null;
        double[] s = sorted();
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    Double min() {
        return complete() ? sorted()[0] : null;
    }

    Double max() {
        return complete() ? sorted()[values.size() - 1] : null;
    }

    List<Double> values() {
        return List.copyOf(values.stream().map(v -> v == null ? Double.NaN : v).toList());
    }

    private double[] sorted() {
        double[] s = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(s);
        return s;
    }
}
