package org.tunefarm.coordinator.strategy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * Uniformly random valid points without replacement. A listed space is shuffled lazily (one
 * Fisher-Yates step per proposal); a huge one is sampled by rejection, skipping repeats.
 */
final class RandomSearch implements Strategy {
    private final History history;
    private final SplittableRandom rng;
    private final long[] order; // null for sampled spaces
    private int next;

    RandomSearch(History history, SplittableRandom rng) {
        this.history = history;
        this.rng = rng;
        this.order = history.valid().isListed() ? history.valid().listed().clone() : null;
    }

    @Override public List<Long> propose(int n) {
        List<Long> out = new ArrayList<>();
        while (out.size() < n) {
            if (order != null) {
                if (next >= order.length) break;
                int j = next + rng.nextInt(order.length - next);
                long pick = order[j];
                order[j] = order[next];
                order[next++] = pick;
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

    @Override public void tell(long index, Result result) {}

    @Override public boolean finished() {
        return order != null && next >= order.length;
    }
}
