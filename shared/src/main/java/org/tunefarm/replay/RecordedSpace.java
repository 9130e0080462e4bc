package org.tunefarm.replay;

import java.util.Arrays;
import java.util.Map;
import java.util.OptionalDouble;

import org.tunefarm.space.SearchSpace;

/**
 * A search space whose every valid point has been measured: the answer key a replay scores a
 * strategy against. Times are in milliseconds; a failed point (did not compile, did not run) has
 * no time and a failure reason instead.
 */
public final class RecordedSpace {

    private final String name;
    private final String device;
    private final String kernel;
    private final SearchSpace space;
    private final long[] indices;     // ascending, the valid points
    private final double[] times;     // NaN where the point failed
    private final String[] failures;  // null where the point ran
    private final double optimum;
    private final long optimumIndex;
    private final boolean truncated;

    RecordedSpace(String name, String device, String kernel, SearchSpace space, Map<Long, Recording> recordings, boolean truncated) {
        this.name = name;
        this.truncated = truncated;
        this.device = device;
        this.kernel = kernel;
        this.space = space;
        indices = recordings.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
        times = new double[indices.length];
        failures = new String[indices.length];
        double best = Double.POSITIVE_INFINITY;
        long bestIndex = -1;
        for (int i = 0; i < indices.length; i++) {
            Recording r = recordings.get(indices[i]);
            times[i] = r.failure() == null ? r.time() : Double.NaN;
            failures[i] = r.failure();
            if (r.failure() == null && r.time() < best) {
                best = r.time();
                bestIndex = indices[i];
            }
        }
        optimum = best;
        optimumIndex = bestIndex;
    }

    /** One measured point: a time in ms, or a failure reason (then time is NaN). */
    record Recording(double time, String failure) {}

    /** Short name, e.g. the cache file's name without extensions. */
    public String name() { return name; }

    public String device() { return device; }

    public String kernel() { return kernel; }

    /** Whether the file ended early (an interrupted run); the points read before the cut are kept. */
    public boolean truncated() { return truncated; }

    /** The space; its only constraint is membership in the recording. */
    public SearchSpace space() { return space; }

    /** Number of valid points (failed ones included). */
    public int size() { return indices.length; }

    /** Number of points that failed. */
    public int failedCount() {
        int n = 0;
        for (String f : failures) if (f != null) n++;
        return n;
    }

    /** The valid indices, ascending (a copy). */
    public long[] indices() { return indices.clone(); }

    /** Best recorded time in ms; +infinity when every point failed. */
    public double optimum() { return optimum; }

    /** Index of the best point, or -1 when every point failed. */
    public long optimumIndex() { return optimumIndex; }

    /** Whether the point was recorded (that is, whether it is valid). */
    public boolean contains(long index) {
        return Arrays.binarySearch(indices, index) >= 0;
    }

    /**
     * The recorded time of a valid point; empty when it failed.
     *
     * @throws IllegalArgumentException when the point is not in the recording
     */
    public OptionalDouble time(long index) {
        int i = position(index);
        return failures[i] == null ? OptionalDouble.of(times[i]) : OptionalDouble.empty();
    }

    /** Why a point failed, or null when it ran. */
    public String failure(long index) {
        return failures[position(index)];
    }

    /** The OK times of all points, in index order (failed points left out). */
    public double[] okTimes() {
        return Arrays.stream(times).filter(t -> !Double.isNaN(t)).toArray();
    }

    private int position(long index) {
        int i = Arrays.binarySearch(indices, index);
        if (i < 0) throw new IllegalArgumentException("index " + index + " is not in the recorded space " + name);
        return i;
    }

    @Override public String toString() {
        return name + " (" + kernel + " on " + device + ", " + size() + " points, " + failedCount() + " failed, optimum " + optimum + " ms)";
    }
}
