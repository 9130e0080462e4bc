package org.tunefarm.coordinator.strategy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** Every valid point once, in index order: the floor, and the way to fill a small space completely. */
final class Exhaustive implements Strategy {
    private final History history;
    private final Iterator<Long> points;

    Exhaustive(History history) {
        this.history = history;
        ValidPoints v = history.valid();
        this.points = v.isListed() ? java.util.Arrays.stream(v.listed()).iterator() : v.space().validIndices();
    }

    @Override public List<Long> propose(int n) {
        List<Long> out = new ArrayList<>();
        while (out.size() < n && points.hasNext()) {
            long i = points.next();
            if (history.claim(i)) out.add(i);
        }
        return out;
    }

    @Override public void tell(long index, Result result) {}

    @Override public boolean finished() {
        return !points.hasNext();
    }
}
