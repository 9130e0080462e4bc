package org.tunefarm.coordinator.strategy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * OpenTuner's AUC bandit: several strategies share one history and one budget, and each proposal
 * goes to the strategy with the highest area under its recent curve of "did my result beat the
 * best so far" (recent wins weigh more), plus an exploration bonus for those used little
 * ({@link ArmCredit}); a stall, several results without a new best, forgets all credit so that
 * every arm gets another turn.
 * Arms are built from the registry with their default options.
 */
final class Bandit implements Strategy {
    static final List<OptionSpec> OPTIONS = List.of(
            new OptionSpec("arms", "comma-separated strategies sharing the budget", "model,genetic,ils,anneal"),
            new OptionSpec("window", "most recent results that count towards an arm's credit", 500),
            new OptionSpec("exploration", "weight of the exploration bonus (OpenTuner's C)", 0.05),
            new OptionSpec("stall", "results in a row without a new best after which every arm's credit is forgotten (0: never)", 10));

    private final History history;
    private final List<Strategy> arms = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final Map<Long, Integer> owner = new HashMap<>();
    private final ArmCredit credit;

    Bandit(History history, Options o, SplittableRandom rng, List<Prior> priors) {
        this.history = history;
        int window = Genetic.positive(o, "window");
        int stall = o.integer("stall");
        if (stall < 0) throw new IllegalArgumentException("option 'stall' must be >= 0, got " + stall);
        for (String raw : o.text("arms").split(",")) {
            String name = raw.trim();
            if (name.isEmpty()) continue;
            Strategies.Entry e = Strategies.entry(name);
            if (e.name().equals("bandit")) throw new IllegalArgumentException("strategy 'bandit': an arm cannot be 'bandit'");
            arms.add(e.factory().create(history, Options.of(e.name(), e.allOptions(), Map.of()), rng.split(), priors));
            names.add(e.name());
        }
        if (arms.isEmpty()) throw new IllegalArgumentException("strategy 'bandit': option 'arms' names no strategy");
        this.credit = new ArmCredit(arms.size(), window, o.number("exploration"), stall);
    }

    @Override public List<Long> propose(int n) {
        List<Long> out = new ArrayList<>();
        boolean[] dry = new boolean[arms.size()];
        while (out.size() < n) {
            int arm = credit.choose(dry);
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

    @Override public void tell(long index, Result result) {
        Integer arm = owner.remove(index);
        boolean gain = result.isOk() && result.time() < history.bestTime();
        if (arm == null) return;
        arms.get(arm).tell(index, result);
        credit.record(arm, gain);
    }

    @Override public String toString() {
        return "bandit" + names;
    }
}
