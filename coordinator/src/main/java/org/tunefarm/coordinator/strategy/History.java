package org.tunefarm.coordinator.strategy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;

import org.tunefarm.coordinator.collect.LongDoubleMap;
import org.tunefarm.coordinator.collect.LongList;
import org.tunefarm.coordinator.collect.LongSet;
import org.tunefarm.space.SearchSpace;

/**
 * What a search has proposed and learnt so far. The strategies of a bandit ensemble share one,
 * so that no two of them propose the same point and each learns from all results. Kept in
 * primitive arrays: a restarted leader rebuilds one for every search of a season's sweeps.
 */
final class History {
    private final ValidPoints valid;
    /** Where a strategy may run its heavy work (a model's refit) apart from proposing; null: in the proposing call. */
    private final java.util.concurrent.Executor background;
    private final LongSet proposed = new LongSet();
    /** Each measured point's time in ms; NaN for a failure, whose reason is in {@link #failures}. */
    private final LongDoubleMap times = new LongDoubleMap();
    /** Why each failed point failed (failures are the few). */
    private final Map<Long, String> failures = new HashMap<>();
    private final LongList order = new LongList();
    private final LongList ranked = new LongList(); // OK points, fastest first
    private long best = -1;
    private double bestTime = Double.POSITIVE_INFINITY;

    History(ValidPoints valid) {
        this(valid, null);
    }

    History(ValidPoints valid, java.util.concurrent.Executor background) {
        this.valid = valid;
        this.background = background;
    }

    /** Where heavy work may run off the proposing thread; null when it must run in the call (replays, tests: deterministic). */
    java.util.concurrent.Executor background() { return background; }

    SearchSpace space() { return valid.space(); }

    ValidPoints valid() { return valid; }

    /** Marks a point as proposed; false when it already was (so the caller must not propose it). */
    boolean claim(long index) {
        return proposed.add(index);
    }

    boolean isProposed(long index) { return proposed.contains(index); }

    int proposedCount() { return proposed.size(); }

    /** Records a result; false when the point already had one. */
    boolean record(long index, Result r) {
        if (!times.putIfAbsent(index, r.time())) return false;
        if (!r.isOk()) failures.put(index, r.failure());
        proposed.add(index);
        order.add(index);
        if (r.isOk()) {
            int lo = 0, hi = ranked.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (times.get(ranked.get(mid), Double.NaN) <= r.time()) lo = mid + 1;
                else hi = mid;
            }
            ranked.insert(lo, index);
        }
        if (r.isOk() && r.time() < bestTime) {
            bestTime = r.time();
            best = index;
        }
        return true;
    }

    /** The point's result, or null when it has none yet. */
    Result result(long index) {
        if (!times.containsKey(index)) return null;
        double t = times.get(index, Double.NaN);
        return Double.isNaN(t) ? Result.failed(failures.get(index)) : Result.ok(t);
    }

    /** Measured points in the order their results arrived (a live view; do not modify). */
    List<Long> measured() { return order.view(); }

    int measuredCount() { return order.size(); }

    /** Points that ran, fastest first (a live view; do not modify). */
    List<Long> ranked() { return ranked.view(); }

    /** Best OK point so far, or -1. */
    long best() { return best; }

    double bestTime() { return bestTime; }

    /** True when every valid point has been proposed (only knowable for listed spaces). */
    boolean exhausted() {
        return valid.isListed() && proposed.size() >= valid.count();
    }

    /** A random valid point not yet proposed (not claimed); empty when none can be found. */
    OptionalLong randomUnproposed(SplittableRandom rng) {
        for (int t = 0; t < 64; t++) {
            OptionalLong s = valid.sample(rng);
            if (s.isEmpty()) return s;
            if (!proposed.contains(s.getAsLong())) return s;
        }
        if (!valid.isListed()) return OptionalLong.empty();
        long[] all = valid.listed();
        int start = rng.nextInt(all.length);
        for (int k = 0; k < all.length; k++) {
            long i = all[(start + k) % all.length];
            if (!proposed.contains(i)) return OptionalLong.of(i);
        }
        return OptionalLong.empty();
    }
}
