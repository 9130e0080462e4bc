package org.tunefarm.lookup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The tuned shapes of one kernel ({@code op}, {@code dtype}, {@code objective}, dimension names)
 * for the one device class a {@link DeviceTable} matched: the hot path of a lookup.
 *
 * <p><b>Shapes.</b> A shape is an {@code int[]} with one size per dimension, in the order of
 * {@link #dimensions()}: the dimension names sorted as in a kernel id ({@code K, M, N} for GEMM).
 * {@link #shape(Map)} builds one from names; build it once and reuse it.
 *
 * <p><b>Rules.</b> The distance between two shapes is {@code sum over dimensions of |ln(a/b)|}
 * (a dimension equal on both sides adds 0; a 0 against a non-zero size makes the distance
 * infinite). {@link #lookup} answers the tuned shape at distance 0 ({@code EXACT}); else the
 * tuned shape at the smallest distance ({@code NEAREST}), ties (distances within 1e-12 of each
 * other) going to the smaller kernel id in lexicographic order, as long as that distance is at
 * most {@link #maxDistance()} (default ln 4: one dimension 4x off, or two 2x off); else the
 * family default ({@code DEFAULT}: the {@code defaultParams} of the class's entry of this op,
 * dtype and dimensions with the smallest kernel id that has them, whatever its objective); else
 * nothing (null).
 *
 * <p><b>Cost.</b> Thread-safe (immutable once built) and allocation-free; no logarithm is taken.
 * The exact shape is found by hashing the int array into an open-addressing table. For the
 * nearest, the distance is {@code ln P} with {@code P} the product over dimensions of
 * larger size / smaller size, and {@code P} is at least the ratio of the two shapes' volumes
 * (the products of their sizes); so the tuned shapes, sorted by volume, are visited outward from
 * the asked shape's volume, and the walk stops where the volume ratio alone exceeds the best
 * {@code P} found or {@code e^maxDistance}. A shape far from everything tuned costs a binary
 * search. The answers are the {@link Answer} objects built with the index.
 */
public final class KernelIndex {

    /** Distances closer than this (relative, on the ratio products) are a tie. */
    private static final double TIE = 1e-12;

    private final String deviceClass;
    private final DeviceRule deviceRule;
    private final String op, dtype, objective;
    private final List<String> dimensions;
    private final double maxDistance;
    /** exp(maxDistance), plus the tie margin: the largest product of ratios that is still near. */
    private final double maxRatio;
    private final int dims;
    private final int count;
    /** Tuned shapes, {@code dims} ints each, in kernel-id order. */
    private final int[] shapes;
    private final Answer[] exact, nearest;
    private final Answer fallback;
    /** The tuned shapes' volumes ({@link #volume}), ascending, and the entry number of each. */
    private final double[] volumes;
    private final int[] byVolume;
    /** Open addressing over the shapes: entry number + 1, 0 for an empty slot. */
    private final int[] slots;
    private final int mask;

    /** @param rows the class's entries of this kernel, sorted by kernel id; {@code defaultRow} may be null */
    KernelIndex(String deviceClass, DeviceRule deviceRule, String objective, List<Row> rows, Row defaultRow, double maxDistance) {
        Row first = rows.get(0);
        this.deviceClass = deviceClass;
        this.deviceRule = deviceRule;
        this.op = first.op();
        this.dtype = first.dtype();
        this.objective = objective;
        this.dimensions = List.copyOf(first.shape().keySet());
        this.maxDistance = maxDistance;
        this.maxRatio = Math.exp(maxDistance) * (1 + TIE);
        this.dims = dimensions.size();
        this.count = rows.size();
        this.shapes = new int[count * dims];
        this.exact = new Answer[count];
        this.nearest = new Answer[count];
        int size = Integer.highestOneBit(Math.max(2, count * 2 - 1)) << 1;
        this.slots = new int[size];
        this.mask = size - 1;
        for (int e = 0; e < count; e++) {
            Row r = rows.get(e);
            int j = 0;
            for (int v : r.shape().values()) shapes[e * dims + j++] = v;
            exact[e] = answer(r, ShapeRule.EXACT);
            nearest[e] = answer(r, ShapeRule.NEAREST);
            int slot = hash(shapes, e * dims, dims) & mask;
            while (slots[slot] != 0) slot = (slot + 1) & mask;
            slots[slot] = e + 1;
        }
        this.fallback = defaultRow == null ? null : defaultAnswer(defaultRow);
        Integer[] order = new Integer[count];
        for (int e = 0; e < count; e++) order[e] = e;
        Arrays.sort(order, java.util.Comparator.comparingDouble(e -> volume(shapes, e * dims, dims)));
        this.byVolume = new int[count];
        this.volumes = new double[count];
        for (int i = 0; i < count; i++) {
            byVolume[i] = order[i];
            volumes[i] = volume(shapes, order[i] * dims, dims);
        }
    }

    /**
     * The answer for a shape given in the order of {@link #dimensions()}, or null when there is
     * none (nothing near and no family default). Allocates nothing.
     *
     * @throws IllegalArgumentException when the shape has the wrong number of sizes or a negative one
     */
    public Answer lookup(int[] shape) {
        if (shape.length != dims) throw new IllegalArgumentException("shape: " + op + " takes " + dims + " sizes " + dimensions + ", got " + shape.length);
        for (int v : shape) if (v < 0) throw new IllegalArgumentException("shape: sizes must not be negative, got " + Arrays.toString(shape));
        int slot = hash(shape, 0, dims) & mask;
        for (int e; (e = slots[slot]) != 0; slot = (slot + 1) & mask) {
            if (Arrays.equals(shapes, (e - 1) * dims, e * dims, shape, 0, dims)) return exact[e - 1];
        }
        // Nearest: walk the tuned shapes outward from this shape's volume, nearer volume first. A
        // side closes where its volume ratio alone exceeds the bound (the best P so far, at most
        // e^maxDistance); the walk ends when both have. Multiplications only, up to a candidate.
        double volume = volume(shape, 0, dims);
        int up = firstAtLeast(volume), down = up - 1;
        int best = -1;
        double bestRatio = Double.POSITIVE_INFINITY, bound = maxRatio;
        while (true) {
            boolean upOpen = up < count && volumes[up] <= volume * bound;
            boolean downOpen = down >= 0 && volumes[down] * bound >= volume;
            if (!upOpen && !downOpen) break;
            // Up when only up is open, or when it is the nearer: volumes[up] / volume <= volume / volumes[down].
            int e = upOpen && (!downOpen || volumes[up] * volumes[down] <= volume * volume) ? byVolume[up++] : byVolume[down--];
            double larger = 1, smaller = 1;
            for (int j = 0, base = e * dims; j < dims; j++) {
                int a = shapes[base + j], q = shape[j];
                // Branch-free: an equal dimension multiplies both by its size, leaving the ratio
                // alone; 0 and 0 count as 1 and 1.
                int max = Math.max(a, q), bothZero = (max - 1) >>> 31;
                larger *= max + bothZero;
                smaller *= Math.min(a, q) + bothZero;
            }
            if (smaller == 0 || larger > maxRatio * smaller) continue; // infinitely far, or beyond the threshold
            double ratio = larger / smaller;
            // Nearer by more than the tie margin, or a tie won by the smaller kernel id (entry number).
            if (ratio < bestRatio * (1 - TIE) || (ratio <= bestRatio * (1 + TIE) && e < best)) {
                best = e;
                bestRatio = ratio;
                bound = Math.min(maxRatio, ratio * (1 + TIE));
            }
        }
        if (best >= 0) return nearest[best];
        return fallback;
    }

    /**
     * A shape from dimension names, in this index's order; the names must be exactly
     * {@link #dimensions()}. Allocates the array: build it once, outside the hot path.
     */
    public int[] shape(Map<String, Integer> sizes) {
        if (!sizes.keySet().equals(new java.util.HashSet<>(dimensions))) {
            throw new IllegalArgumentException("shape: " + op + " has dimensions " + dimensions + ", got " + sizes.keySet());
        }
        int[] out = new int[dims];
        for (int j = 0; j < dims; j++) out[j] = sizes.get(dimensions.get(j));
        return out;
    }

    /** The distance between two shapes of this index's order, as the rules define it. */
    public static double distance(int[] a, int[] b) {
        if (a.length != b.length) throw new IllegalArgumentException("shapes of different dimension counts never match");
        double d = 0;
        for (int j = 0; j < a.length; j++) {
            if (a[j] == b[j]) continue;
            d += (a[j] == 0 || b[j] == 0) ? Double.POSITIVE_INFINITY : Math.abs(Math.log((double) a[j] / b[j]));
        }
        return d;
    }

    /** Dimension names, sorted: the order of a shape's sizes. */
    public List<String> dimensions() { return dimensions; }

    public String op() { return op; }

    public String dtype() { return dtype; }

    public String objective() { return objective; }

    /** The table's device class this index answers from. */
    public String deviceClass() { return deviceClass; }

    /** How the device was matched to {@link #deviceClass()}. */
    public DeviceRule deviceRule() { return deviceRule; }

    /** The largest distance a {@code NEAREST} answer may be at. */
    public double maxDistance() { return maxDistance; }

    /** The tuned shapes, in kernel-id order, each in the order of {@link #dimensions()}. */
    public List<int[]> tunedShapes() {
        List<int[]> out = new ArrayList<>(count);
        for (int e = 0; e < count; e++) out.add(Arrays.copyOfRange(shapes, e * dims, (e + 1) * dims));
        return out;
    }

    /** The family default's answer, or null when the class's entries carry no default parameters. */
    public Answer familyDefault() { return fallback; }

    @Override public String toString() {
        return op + ":" + dtype + " " + objective + " " + dimensions + " for " + deviceClass + " (" + deviceRule + ", " + count + " shapes)";
    }

    /**
     * The product of the sizes, a 0 counting as 1. For two shapes, {@code P >= max(Va/Vb, Vb/Va)}:
     * the log of the volume ratio is the sum of the dimensions' log ratios, at most the sum of their
     * absolute values (a dimension 0 on one side only makes {@code P} infinite; on both, 1/1).
     */
    private static double volume(int[] values, int from, int length) {
        double v = 1;
        for (int j = from; j < from + length; j++) v *= Math.max(values[j], 1);
        return v;
    }

    /** Index of the first tuned volume at least {@code volume}, or {@code count}. */
    private int firstAtLeast(double volume) {
        int lo = 0, hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (volumes[mid] < volume) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    private static int hash(int[] values, int from, int length) {
        int h = 0x9E3779B9;
        for (int j = from; j < from + length; j++) h = (h ^ values[j]) * 0x01000193;
        return h ^ (h >>> 16);
    }

    private Answer answer(Row r, ShapeRule rule) {
        return new Answer(deviceClass, deviceRule, op, dtype, objective, rule, r.shape(), r.kernelId(), r.params(),
                r.medianNs(), r.speedupOverDefault(), r.gflops(), r.sweepId(), r.agentId(), instant(r.measuredAt()));
    }

    /** The family default, with the figures of its baseline measurement on that entry's shape. */
    private Answer defaultAnswer(Row r) {
        // Same shape, so the same work per call: GFLOP/s scale with the inverse of the time.
        double gflops = r.gflops() * r.medianNs() / r.defaultMedianNs();
        return new Answer(deviceClass, deviceRule, op, dtype, objective, ShapeRule.DEFAULT, r.shape(), r.kernelId(), r.defaultParams(),
                r.defaultMedianNs(), 1.0, gflops, r.sweepId(), null, instant(r.defaultMeasuredAt()));
    }

    private static Instant instant(long epochMs) {
        return epochMs > 0 ? Instant.ofEpochMilli(epochMs) : null;
    }
}
