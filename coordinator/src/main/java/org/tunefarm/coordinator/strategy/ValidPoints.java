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

    /**
     * Listings of the spaces listed lately, shared: a restored farm begins thousands of searches
     * over a few spaces (every sweep of a kernel on a class has the same one), and walking a space
     * of a million points for each, and keeping a copy each, would make a start grow with its
     * sweeps times their spaces. The arrays are never written.
     */
    private static final java.util.Map<SearchSpace, long[]> LISTED = new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override protected boolean removeEldestEntry(java.util.Map.Entry<SearchSpace, long[]> eldest) {
            return size() > LISTINGS_KEPT;
        }
    };
    static final int LISTINGS_KEPT = 64;
    /** The listing of a space too large to list, in {@link #LISTED}. */
    private static final long[] UNLISTED = new long[0];

    ValidPoints(SearchSpace space) {
        this.space = space;
        this.listed = listing(space);
    }

    private static long[] listing(SearchSpace space) {
        // A replayed space is equal to another by its constraint's text, not its members: list it afresh (it is cheap).
        if (space.constraints().stream().anyMatch(c -> c instanceof MembershipConstraint)) return list(space);
        synchronized (LISTED) {
            long[] known = LISTED.get(space);
            if (known != null) return known == UNLISTED ? null : known;
        }
        long[] l = list(space);
        synchronized (LISTED) {
            LISTED.put(space, l == null ? UNLISTED : l);
        }
        return l;
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

    /** The valid indices ascending, shared by every search of an equal space: read, never write. Only when {@link #isListed()}. */
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
