package org.tunefarm.coordinator.strategy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * A steady-state genetic algorithm: the population is the fastest {@code popSize} points measured
 * so far, so each result joins it as it arrives and no generation ever waits for stragglers.
 * Children come from tournament-selected parents by uniform crossover, then mutation; a child that
 * breaks the constraints or was already proposed is bred again.
 */
final class Genetic implements Strategy {
    static final List<OptionSpec> OPTIONS = List.of(
            new OptionSpec("popSize", "points kept in the population (the fastest measured)", 20),
            new OptionSpec("crossover", "probability that a child is bred from two parents rather than copied from one", 0.8),
            new OptionSpec("mutation", "probability that each parameter of a child mutates (0: one over the number of parameters)", 0.0),
            new OptionSpec("tournament", "contestants per parent selection", 3));

    private final History history;
    private final SplittableRandom rng;
    private final int popSize;
    private final double crossover;
    private final double mutation;
    private final int tournament;

    Genetic(History history, Options o, SplittableRandom rng, List<Prior> priors) {
        this.history = history;
        this.rng = rng;
        this.popSize = positive(o, "popSize");
        this.crossover = o.number("crossover");
        double m = o.number("mutation");
        this.mutation = m > 0 ? m : 1.0 / history.space().dimensions();
        this.tournament = positive(o, "tournament");
    }

    static int positive(Options o, String name) {
        int v = o.integer(name);
        if (v <= 0) throw new IllegalArgumentException("option '" + name + "' must be positive, got " + v);
        return v;
    }

    @Override public List<Long> propose(int n) {
        List<Long> out = new ArrayList<>();
        while (out.size() < n) {
            long child = breed();
            if (child < 0) break;
            out.add(child);
        }
        return out;
    }

    /** A claimed new point, or -1 when the space is exhausted. */
    private long breed() {
        List<Long> pop = history.ranked();
        if (pop.size() >= Math.min(popSize, 2) && history.proposedCount() >= popSize) {
            int size = Math.min(popSize, pop.size());
            for (int t = 0; t < 30; t++) {
                long a = pop.get(select(size));
                long child = a;
                if (rng.nextDouble() < crossover) {
                    long c = Moves.crossover(history.space(), a, pop.get(select(size)), rng);
                    if (c >= 0) child = c;
                }
                if (child == a || history.isProposed(child) || rng.nextDouble() < 0.5) {
                    child = Moves.mutate(history.space(), child, mutation, rng);
                }
                if (child >= 0 && history.claim(child)) return child;
            }
        }
        OptionalLong r = history.randomUnproposed(rng);
        if (r.isEmpty()) return -1;
        history.claim(r.getAsLong());
        return r.getAsLong();
    }

    /** Tournament selection over the ranked population: the best rank of a few random picks. */
    private int select(int size) {
        int best = rng.nextInt(size);
        for (int i = 1; i < tournament; i++) best = Math.min(best, rng.nextInt(size));
        return best;
    }

    @Override public void tell(long index, Result result) {}
}
