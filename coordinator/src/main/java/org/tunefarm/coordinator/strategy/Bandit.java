package org.tunefarm.coordinator.strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * OpenTuner's AUC bandit: several strategies share one history and one budget, and each proposal
 * goes to the strategy with the highest area under its recent curve of "did my result beat the
 * best so far" (recent wins weigh more), plus an exploration bonus for those used little.
 * Arms are built from the registry with their default options.
 */
final class Bandit implements Strategy {
    static final List<OptionSpec> OPTIONS = List.of(
            new OptionSpec("arms", "comma-separated strategies sharing the budget", "model,genetic,ils,anneal"),
            new OptionSpec("window", "most recent results that count towards an arm's credit", 500),
            new OptionSpec("exploration", "weight of the exploration bonus (OpenTuner's C)", 0.05));

    private record Use(int arm, boolean gain) {}

    private final History history;
    private final List<Strategy> arms = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final Map<Long, Integer> owner = new HashMap<>();
    private final Deque<Use> uses = new ArrayDeque<>();
    private final int window;
    private final double c;

    Bandit(History history, Options o, SplittableRandom rng, List<Prior> priors) {
        this.history = history;
        this.window = Genetic.positive(o, "window");
        this.c = o.number("exploration");
        for (String raw : o.text("arms").split(",")) {
            String name = raw.trim();
            if (name.isEmpty()) continue;
            Strategies.Entry e = Strategies.entry(name);
            if (e.name().equals("bandit")) throw new IllegalArgumentException("strategy 'bandit': an arm cannot be 'bandit'");
            arms.add(e.factory().create(history, Options.of(e.name(), e.allOptions(), Map.of()), rng.split(), priors));
            names.add(e.name());
        }
        if (arms.isEmpty()) throw new IllegalArgumentException("strategy 'bandit': option 'arms' names no strategy");
    }

    @Override public List<Long> propose(int n) {
        List<Long> out = new ArrayList<>();
        boolean[] dry = new boolean[arms.size()];
        while (out.size() < n) {
            int arm = choose(dry);
            if (arm < 0) break;
            List<Long> got = arms.get(arm).propose(1);
            if (got.isEmpty()) {
                dry[arm] = true; // waiting or exhausted: ask another arm this time
                continue;
            }
            owner.put(got.get(0), arm);
            out.add(got.get(0));
        }
        return out;
    }

    /** The arm with the best credit plus bonus, untried arms first; -1 when all are dry. */
    private int choose(boolean[] dry) {
        int[] count = new int[arms.size()];
        double[] auc = new double[arms.size()];
        for (Use u : uses) {
            count[u.arm()]++;
            if (u.gain()) auc[u.arm()] += count[u.arm()]; // later wins weigh more
        }
        int best = -1;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int a = 0; a < arms.size(); a++) {
            if (dry[a]) continue;
            if (count[a] == 0) return a;
            double credit = auc[a] * 2 / ((double) count[a] * (count[a] + 1));
            double score = credit + c * Math.sqrt(2 * Math.log(uses.size()) / count[a]);
            if (score > bestScore) {
                bestScore = score;
                best = a;
            }
        }
        return best;
    }

    @Override public void tell(long index, Result result) {
        Integer arm = owner.remove(index);
        boolean gain = result.isOk() && result.time() < history.bestTime();
        if (arm == null) return;
        arms.get(arm).tell(index, result);
        uses.addLast(new Use(arm, gain));
        if (uses.size() > window) uses.removeFirst();
    }

    @Override public String toString() {
        return "bandit" + names;
    }
}
