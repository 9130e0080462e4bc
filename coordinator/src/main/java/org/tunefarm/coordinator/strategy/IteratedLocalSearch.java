package org.tunefarm.coordinator.strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * Greedy iterated local search. Walks to the first neighbour (one parameter changed to any value)
 * that beats the current point; when a point's neighbours are all proposed without improvement,
 * it is a local optimum, and the search perturbs the best point found ({@code perturbation}
 * parameters changed) and walks from there. It never waits: while neighbours' results are out it
 * keeps perturbing, so every agent stays busy.
 */
final class IteratedLocalSearch implements Strategy {
    static final List<OptionSpec> OPTIONS = List.of(
            new OptionSpec("perturbation", "parameters changed when kicking out of a local optimum", 2),
            new OptionSpec("restart", "probability that a kick starts from a random point instead of the best", 0.1));

    private final History history;
    private final SplittableRandom rng;
    private final int perturbation;
    private final double restart;
    private final Deque<Long> queue = new ArrayDeque<>();
    private final java.util.Set<Long> kicks = new java.util.HashSet<>();
    private long current = -1;
    private double currentTime = Double.POSITIVE_INFINITY;

    IteratedLocalSearch(History history, Options o, SplittableRandom rng, List<Prior> priors) {
        this.history = history;
        this.rng = rng;
        this.perturbation = Genetic.positive(o, "perturbation");
        this.restart = o.number("restart");
    }

    @Override public List<Long> propose(int n) {
        List<Long> out = new ArrayList<>();
        while (out.size() < n) {
            Long next = queue.pollFirst();
            if (next != null) {
                if (history.claim(next)) out.add(next);
                continue;
            }
            long kick = kick();
            if (kick < 0) break;
            out.add(kick);
        }
        return out;
    }

    /** A claimed perturbed point (or a random one), or -1 when the space is exhausted. */
    private long kick() {
        long from = history.best();
        if (from >= 0 && rng.nextDouble() >= restart) {
            double rate = Math.min(1.0, (double) perturbation / history.space().dimensions());
            for (int t = 0; t < 10; t++) {
                long p = Moves.mutate(history.space(), from, rate, rng);
                if (p >= 0 && history.claim(p)) {
                    kicks.add(p);
                    return p;
                }
            }
        }
        OptionalLong r = history.randomUnproposed(rng);
        if (r.isEmpty()) return -1;
        history.claim(r.getAsLong());
        kicks.add(r.getAsLong());
        return r.getAsLong();
    }

    @Override public void tell(long index, Result result) {
        boolean kick = kicks.remove(index);
        if (!result.isOk()) return;
        // Descend from a kicked point when the walk has nowhere left to go: that is the "iterated" part.
        if (result.time() < currentTime || (kick && queue.isEmpty())) moveTo(index, result.time());
    }

    private void moveTo(long index, double time) {
        current = index;
        currentTime = time;
        queue.clear();
        List<Long> near = new ArrayList<>(Moves.hamming(history.space(), index));
        Collections.shuffle(near, new java.util.Random(rng.nextLong()));
        for (long i : near) if (!history.isProposed(i)) queue.add(i);
    }
}
