package org.tunefarm.coordinator.strategy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * Uniformly random valid points without replacement. A listed space is shuffled lazily (one
 * Fisher-Yates step per proposal) over the shared listing, with only the displaced positions kept
 * ({@code moved}), so a search holds what it proposed, not a copy of its space; a huge space is
 * sampled by rejection, skipping repeats.
 */
final class RandomSearch implements Strategy {
    private final History history;
    private final SplittableRandom rng;
    /** The listing, shared and never written; null for sampled spaces. */
    private final long[] listed;
    /** Positions of the shuffle whose point is not the listing's: position → point. */
    private final java.util.Map<Integer, Long> moved = new java.util.HashMap<>();
    private int next;

    RandomSearch(History history, SplittableRandom rng) {
        this.history = history;
        this.rng = rng;
        this.listed = history.valid().isListed() ? history.valid().listed() : null;
    }

    @Override public List<Long> propose(int n) {
        List<Long> out = new ArrayList<>();
        while (out.size() < n) {
            if (listed != null) {
                if (next >= listed.length) break;
                int j = next + rng.nextInt(listed.length - next);
                long pick = at(j);
                if (j != next) moved.put(j, at(next));
                moved.remove(next++); // behind the shuffle's front: never read again
                if (history.claim(pick)) out.add(pick);
            } else {
                OptionalLong s = history.randomUnproposed(rng);
                if (s.isEmpty()) break;
                history.claim(s.getAsLong());
                out.add(s.getAsLong());
            }
        }
        return out;
    }

    /** The point at a position of the shuffle. */
    private long at(int position) {
        Long p = moved.get(position);
        return p != null ? p : listed[position];
    }

    @Override public void tell(long index, Result result) {}

    @Override public boolean finished() {
        return listed != null && next >= listed.length;
    }
}
