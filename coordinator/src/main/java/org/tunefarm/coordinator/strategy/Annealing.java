package org.tunefarm.coordinator.strategy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * Simulated annealing over single-parameter moves. A worse point is accepted with probability
 * exp(-relative slowdown / temperature), the temperature cooling geometrically per result; after
 * {@code patience} results without a new best it restarts from the best point, reheated.
 * Proposals are all moves from the current point, so many can be out at once.
 */
final class Annealing implements Strategy {
    static final List<OptionSpec> OPTIONS = List.of(
            new OptionSpec("temperature", "starting temperature, as a relative slowdown accepted with probability 1/e", 0.1),
            new OptionSpec("cooling", "factor applied to the temperature after each result", 0.98),
            new OptionSpec("patience", "results without a new best before restarting from the best", 40));

    private final History history;
    private final SplittableRandom rng;
    private final double t0;
    private final double cooling;
    private final int patience;
    private double temperature;
    private long current = -1;
    private double currentTime = Double.POSITIVE_INFINITY;
    private int sinceBest;

    Annealing(History history, Options o, SplittableRandom rng, List<Prior> priors) {
        this.history = history;
        this.rng = rng;
        this.t0 = o.number("temperature");
        this.cooling = o.number("cooling");
        this.patience = Genetic.positive(o, "patience");
        if (t0 <= 0 || cooling <= 0 || cooling > 1) throw new IllegalArgumentException("options 'temperature' must be > 0 and 'cooling' in (0, 1]");
        this.temperature = t0;
    }

    @Override public List<Long> propose(int n) {
        List<Long> out = new ArrayList<>();
        while (out.size() < n) {
            long next = current < 0 ? -1 : Moves.mutate(history.space(), current, 1.0 / history.space().dimensions(), rng);
            if (next >= 0 && history.claim(next)) {
                out.add(next);
                continue;
            }
            if (current >= 0) {
                List<Long> near = Moves.hamming(history.space(), current);
                next = near.stream().filter(i -> !history.isProposed(i)).findAny().orElse(-1L);
                if (next >= 0 && history.claim(next)) {
                    out.add(next);
                    continue;
                }
            }
            OptionalLong r = history.randomUnproposed(rng); // nothing new around here: jump
            if (r.isEmpty()) break;
            history.claim(r.getAsLong());
            out.add(r.getAsLong());
        }
        return out;
    }

    @Override public void tell(long index, Result result) {
        temperature *= cooling;
        boolean newBest = result.isOk() && result.time() < history.bestTime();
        sinceBest = newBest ? 0 : sinceBest + 1;
        if (result.isOk()) {
            double slowdown = (result.time() - currentTime) / currentTime;
            if (current < 0 || slowdown < 0 || rng.nextDouble() < Math.exp(-slowdown / temperature)) {
                current = index;
                currentTime = result.time();
            }
        }
        if (sinceBest >= patience && history.best() >= 0) {
            current = history.best();
            currentTime = history.bestTime();
            temperature = t0;
            sinceBest = 0;
        }
    }
}
