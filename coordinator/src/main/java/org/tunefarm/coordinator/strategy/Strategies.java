package org.tunefarm.coordinator.strategy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.tunefarm.space.SearchSpace;

/**
 * The strategies by name, each with its options declared as data. {@link #create} checks the
 * options, builds the strategy, and holds it to its budget ({@code budget} trials and
 * {@code timeLimit} seconds, options every strategy has).
 */
public final class Strategies {

    /**
     * What a sweep uses when its spec names no strategy. The bandit, because in replay (20 seeds,
     * budget 200, the five spaces in shared/data/spaces) it has the best worst case (mean fraction
     * of optimum at least 0.987, 0.993 at budget 400; the genetic algorithm, next, 0.974) and,
     * sharing the budget among unlike searches, is the safer bet on spaces nobody has replayed.
     * It forgets its arms' credit on a stall (see {@link ArmCredit}): before that its worst was
     * 0.982, and over 60 seeds 0.962 against 0.983 now.
     */
    public static final String DEFAULT = "bandit";

    static final List<OptionSpec> COMMON = List.of(
            new OptionSpec("budget", "most candidates to propose, failed ones included (0: no limit)", 0),
            new OptionSpec("timeLimit", "seconds after the first proposal to stop proposing (0: no limit)", 0.0));

    /** Builds one strategy over a shared history; the bandit uses these to build its arms. */
    interface Factory {
        Strategy create(History history, Options options, SplittableRandom rng, List<Prior> priors);
    }

    /** A registered strategy: its name, what it does, its own options, and how to build it. */
    record Entry(String name, String description, List<OptionSpec> options, Factory factory) {
        List<OptionSpec> allOptions() {
            List<OptionSpec> all = new ArrayList<>(options);
            all.addAll(COMMON);
            return all;
        }
    }

    private static final Map<String, Entry> REGISTRY = new LinkedHashMap<>();

    static {
        register(new Entry("exhaustive", "every valid point once, in index order", List.of(),
                (h, o, r, p) -> new Exhaustive(h)));
        register(new Entry("random", "uniformly random valid points, without replacement", List.of(),
                (h, o, r, p) -> new RandomSearch(h, r)));
        register(new Entry("genetic", "steady-state genetic algorithm: tournament selection, uniform crossover, mutation", Genetic.OPTIONS, Genetic::new));
        register(new Entry("anneal", "simulated annealing over single-parameter moves, restarting when stuck", Annealing.OPTIONS, Annealing::new));
        register(new Entry("ils", "greedy iterated local search: first-improvement over single-parameter changes, perturb at local optima", IteratedLocalSearch.OPTIONS, IteratedLocalSearch::new));
        register(new Entry("model", "gradient-boosted-trees cost model trained on the measurements so far; proposes by predicted rank with exploration; can start from other device classes' records", ModelGuided.OPTIONS, ModelGuided::new));
        register(new Entry("bandit", "AUC bandit sharing the budget among strategies by their recent gains (OpenTuner)", Bandit.OPTIONS, Bandit::new));
    }

    private Strategies() {}

    private static void register(Entry e) {
        REGISTRY.put(e.name(), e);
    }

    /** Registered names in registration order. */
    public static List<String> names() {
        return List.copyOf(REGISTRY.keySet());
    }

    /** The options a strategy accepts, its own and the common ones. */
    public static List<OptionSpec> options(String name) {
        return entry(name).allOptions();
    }

    public static Strategy create(String name, SearchSpace space, Map<String, ?> options, long seed) {
        return create(name, space, options, seed, List.of());
    }

    /**
     * @param priors records of the same kernel on other device classes; strategies that can use
     *               them start from them (see {@link #usesPriors}), the others ignore them
     * @throws IllegalArgumentException naming an unknown strategy or option, or an ill-typed value
     */
    public static Strategy create(String name, SearchSpace space, Map<String, ?> options, long seed, List<Prior> priors) {
        return create(name, space, options, seed, priors, null);
    }

    /**
     * @param background where heavy work of the strategy (a model's refit) runs, so that proposing
     *                   stays cheap on the caller's thread (the leader's event loop); null runs it
     *                   in the proposing call, which makes a replay deterministic
     */
    public static Strategy create(String name, SearchSpace space, Map<String, ?> options, long seed, List<Prior> priors,
                                  java.util.concurrent.Executor background) {
        Entry e = entry(name);
        Options o = Options.of(e.name(), e.allOptions(), options);
        if (o.integer("budget") < 0) throw new IllegalArgumentException("strategy '" + e.name() + "': option 'budget' must be >= 0");
        if (o.number("timeLimit") < 0) throw new IllegalArgumentException("strategy '" + e.name() + "': option 'timeLimit' must be >= 0");
        History history = new History(new ValidPoints(space), background);
        Strategy s = e.factory().create(history, o, new SplittableRandom(seed), List.copyOf(priors));
        return new Budgeted(s, history, o.integer("budget"), o.number("timeLimit"), System::nanoTime);
    }

    /** Whether a strategy starts from other device classes' records when given them. */
    public static boolean usesPriors(String name) {
        return entry(name).name().equals("model");
    }

    /** Help text: every strategy with its meaning and options, from the declarations. */
    public static String describe() {
        StringBuilder b = new StringBuilder();
        for (Entry e : REGISTRY.values()) {
            b.append(e.name()).append(e.name().equals(DEFAULT) ? " (default)" : "").append(": ").append(e.description()).append('\n');
            for (OptionSpec s : e.allOptions()) b.append("    ").append(s.help()).append('\n');
        }
        return b.toString();
    }

    static Entry entry(String name) {
        String n = name.equals("default") ? DEFAULT : name;
        Entry e = REGISTRY.get(n);
        if (e == null) throw new IllegalArgumentException("unknown strategy '" + name + "'; known: " + String.join(", ", REGISTRY.keySet()));
        return e;
    }
}
