package org.tunefarm.coordinator.strategy;

import java.util.Arrays;
import java.util.Iterator;
import java.util.OptionalLong;
import java.util.SplittableRandom;

import org.tunefarm.replay.MembershipConstraint;
import org.tunefarm.space.Constraint;
import org.tunefarm.space.SearchSpace;

/**
 * The valid points of a space, listed when that is cheap and sampled by rejection otherwise.
 * A replayed space lists its members directly; a space of up to {@link #LIST_LIMIT} points is
 * walked once; anything larger is only ever sampled, so a 10^12-point space costs nothing up front.
 */
final class ValidPoints {
    static final long LIST_LIMIT = 1L << 21;

    private final SearchSpace space;
    private final long[] listed; // ascending, or null when the space is only sampled

    ValidPoints(SearchSpace space) {
        this.space = space;
        this.listed = list(space);
    }

    private static long[] list(SearchSpace space) {
        for (Constraint c : space.constraints()) {
            if (c instanceof MembershipConstraint m) {
                return Arrays.stream(m.members()).filter(space::isValid).toArray();
            }
        }
        if (space.size() > LIST_LIMIT) return null;
        long[] out = new long[16];
        int n = 0;
        for (Iterator<Long> it = space.validIndices(); it.hasNext(); ) {
            if (n == out.length) out = Arrays.copyOf(out, n * 2);
            out[n++] = it.next();
        }
        return Arrays.copyOf(out, n);
    }

    SearchSpace space() { return space; }

    boolean isListed() { return listed != null; }

    /** The valid indices ascending; only when {@link #isListed()}. */
    long[] listed() {
        if (listed == null) throw new IllegalStateException("space too large to list");
        return listed;
    }

    /** Number of valid points, or -1 when unknown (space only sampled). */
    long count() {
        return listed == null ? -1 : listed.length;
    }

    /** A uniformly random valid point; empty when rejection sampling keeps missing. */
    OptionalLong sample(SplittableRandom rng) {
        if (listed != null) return listed.length == 0 ? OptionalLong.empty() : OptionalLong.of(listed[rng.nextInt(listed.length)]);
        return space.sample(rng, 100_000);
    }
}
