package org.tunefarm.coordinator.strategy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;

import org.tunefarm.space.SearchSpace;

/**
 * What a search has proposed and learnt so far. The strategies of a bandit ensemble share one,
 * so that no two of them propose the same point and each learns from all results.
 */
final class History {
    private final ValidPoints valid;
    /** Where a strategy may run its heavy work (a model's refit) apart from proposing; null: in the proposing call. */
    private final java.util.concurrent.Executor background;
    private final Set<Long> proposed = new HashSet<>();
    private final Map<Long, Result> results = new HashMap<>();
    private final List<Long> order = new ArrayList<>();
    private final List<Long> ranked = new ArrayList<>(); // OK points, fastest first
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
        if (results.putIfAbsent(index, r) != null) return false;
        proposed.add(index);
        order.add(index);
        if (r.isOk()) {
            int lo = 0, hi = ranked.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (results.get(ranked.get(mid)).time() <= r.time()) lo = mid + 1;
                else hi = mid;
            }
            ranked.add(lo, index);
        }
        if (r.isOk() && r.time() < bestTime) {
            bestTime = r.time();
            best = index;
        }
        return true;
    }

    Result result(long index) { return results.get(index); }

    /** Measured points in the order their results arrived. */
    List<Long> measured() { return order; }

    int measuredCount() { return order.size(); }

    /** Points that ran, fastest first (a live view; do not modify). */
    List<Long> ranked() { return ranked; }

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
