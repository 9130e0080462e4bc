package org.tunefarm.coordinator.strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;

import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/**
 * Model-guided search in the manner of AutoTVM's XGBoost tuner and Ansor: a gradient-boosted
 * trees model of log(time) is fitted to the measurements so far, a pool of unmeasured points is
 * ranked by it, and proposals are taken from the top of that ranking, with a fraction drawn at
 * random so that regions the model has never seen still get sampled. Failed points train the
 * model as slower than anything that ran, so it learns to steer away from them.
 *
 * <p>The model is refitted only after a batch of new results (about a tenth of those so far), not
 * on every one, so proposals stay cheap. The pool is every unmeasured point when the space is
 * small enough, else the neighbourhoods of the best points plus mutations and random samples.
 *
 * <p>Where the search has a background executor (the farm's leader), a refit runs there: the
 * proposing thread takes the training set and the points to rank as they are, and goes on
 * proposing from the previous ranking (or at random, before the first) until the new one is
 * ready, so the leader's event loop never fits a model. Without one (a replay) the refit runs in
 * the proposing call, and a seed gives the same proposals every time.
 *
 * <p>Transfer: records of other device classes ({@link Prior}) join the training set with their
 * times divided by their class's best and a feature marking them foreign, so the first model
 * already knows which regions were fast elsewhere, and the measured points soon override it.
 */
final class ModelGuided implements Strategy {
    static final List<OptionSpec> OPTIONS = List.of(
            new OptionSpec("initial", "random points measured before the first model (fewer when priors are given)", 20),
            new OptionSpec("explore", "fraction of proposals drawn at random rather than by the model", 0.1),
            new OptionSpec("retrain", "new results between refits (0: a tenth of the results so far, at least 4)", 0),
            new OptionSpec("pool", "most unmeasured points ranked after each refit", 1000),
            new OptionSpec("whole", "rank every unmeasured point when the space is listed and no larger than the pool", false),
            new OptionSpec("trees", "trees in the model", 60),
            new OptionSpec("depth", "greatest depth of each tree", 5),
            new OptionSpec("growth", "measurements per unit of log2 depth: trees have depth log2(n / growth), so few points fit main effects only", 5),
            new OptionSpec("learningRate", "shrinkage applied to each tree", 0.15));

    private static final int MAX_PRIORS = 2000;

    private final History history;
    private final SplittableRandom rng;
    private final SearchSpace space;
    private final int initial;
    private final double explore;
    private final int retrain;
    private final int pool;
    private final boolean whole;
    private final int growth;
    private static final int LOCAL_TOP = 5;
    private final BoostedTrees.Params params;
    private final List<double[]> priorX = new ArrayList<>();
    private final List<Double> priorY = new ArrayList<>();
    private final Deque<Long> ranked = new ArrayDeque<>();
    private int fittedAt = -1;
    /** A ranking fitted in the background, waiting to replace {@link #ranked}; null when none is. */
    private final java.util.concurrent.atomic.AtomicReference<long[]> fitted = new java.util.concurrent.atomic.AtomicReference<>();
    /** Whether a refit runs in the background now: one at a time. */
    private final java.util.concurrent.atomic.AtomicBoolean refitting = new java.util.concurrent.atomic.AtomicBoolean();
    /** Whether a ranking was installed yet: until then proposals are random. */
    private boolean modelled;
    // Features of points already seen; listed spaces are scored whole after every refit.
    private final Map<Long, double[]> featureCache = new HashMap<>();

    ModelGuided(History history, Options o, SplittableRandom rng, List<Prior> priors) {
        this.history = history;
        this.rng = rng;
        this.space = history.space();
        this.initial = Math.max(1, o.integer("initial"));
        this.explore = o.number("explore");
        this.retrain = o.integer("retrain");
        this.pool = Genetic.positive(o, "pool");
        this.whole = o.flag("whole");
        this.growth = Genetic.positive(o, "growth");
        this.params = new BoostedTrees.Params(Genetic.positive(o, "trees"), Genetic.positive(o, "depth"), o.number("learningRate"), 2, 0.8);
        if (explore < 0 || explore > 1) throw new IllegalArgumentException("option 'explore' must be in [0, 1], got " + explore);
        addPriors(priors);
    }

    private void addPriors(List<Prior> priors) {
        Map<String, Double> bestOf = new HashMap<>();
        for (Prior p : priors) bestOf.merge(p.deviceClass(), p.time(), Math::min);
        List<Prior> shuffled = new ArrayList<>(priors);
        java.util.Collections.shuffle(shuffled, new java.util.Random(rng.nextLong()));
        for (Prior p : shuffled) {
            if (priorX.size() >= MAX_PRIORS) break;
            var valid = space.validIndex(p.config());
            if (valid.isEmpty()) continue; // a configuration this space does not have
            priorX.add(features(valid.getAsLong(), 1));
            priorY.add(Math.log(p.time() / bestOf.get(p.deviceClass())));
        }
    }

    @Override public List<Long> propose(int n) {
        List<Long> out = new ArrayList<>();
        while (out.size() < n) {
            long next = next();
            if (next < 0) break;
            out.add(next);
        }
        return out;
    }

    private long next() {
        long[] ready = fitted.getAndSet(null);
        if (ready != null) install(ready);
        int results = history.measuredCount();
        boolean canFit = !priorX.isEmpty() || results >= Math.min(initial, 4) && history.proposedCount() >= initial;
        if (canFit && (fittedAt < 0 || results - fittedAt >= interval(results)) && !refitting.get()) refit();
        // A search that starts from other classes' records waits for its first model rather than
        // spend its first proposals at random: that model is what the records are for.
        if (!modelled && refitting.get() && !priorX.isEmpty()) return -1;
        if (modelled && rng.nextDouble() >= explore) {
            while (!ranked.isEmpty()) {
                long i = ranked.pollFirst();
                if (history.claim(i)) return i;
            }
        }
        OptionalLong r = history.randomUnproposed(rng);
        if (r.isEmpty()) return -1;
        history.claim(r.getAsLong());
        return r.getAsLong();
    }

    private int interval(int results) {
        return retrain > 0 ? retrain : Math.max(4, results / 10);
    }

    private void install(long[] ranking) {
        ranked.clear();
        for (long i : ranking) ranked.add(i);
        modelled = true;
    }

    /** The training set, as the history holds it now: features, and log time over the best. */
    private record TrainingSet(double[][] x, double[] y, BoostedTrees.Params params) {}

    private void refit() {
        fittedAt = history.measuredCount();
        TrainingSet t = trainingSet();
        java.util.concurrent.Executor background = history.background();
        if (background == null) {
            BoostedTrees model = BoostedTrees.fit(t.x(), t.y(), t.params(), rng);
            long[] candidates = candidates();
            install(rank(model, candidates, rows(candidates)));
            return;
        }
        // The points to rank and their features are taken here, where the history and the
        // feature cache live; the fit and the ranking run apart, on their own random stream.
        long[] candidates = candidates();
        double[][] rows = rows(candidates);
        SplittableRandom fitRng = rng.split();
        refitting.set(true);
        try {
            background.execute(() -> {
                try {
                    fitted.set(rank(BoostedTrees.fit(t.x(), t.y(), t.params(), fitRng), candidates, rows));
                } finally {
                    refitting.set(false);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            refitting.set(false); // the farm is stopping: no model, proposals go on at random
        }
    }

    private double[][] rows(long[] candidates) {
        double[][] rows = new double[candidates.length][];
        for (int j = 0; j < candidates.length; j++) rows[j] = features(candidates[j], 0);
        return rows;
    }

    /** The candidates, best predicted first. */
    private static long[] rank(BoostedTrees model, long[] candidates, double[][] rows) {
        double[] score = model.predict(rows);
        Integer[] byScore = new Integer[candidates.length];
        for (int j = 0; j < byScore.length; j++) byScore[j] = j;
        Arrays.sort(byScore, (a, b) -> Double.compare(score[a], score[b]));
        long[] out = new long[candidates.length];
        for (int j = 0; j < out.length; j++) out[j] = candidates[byScore[j]];
        return out;
    }

    private TrainingSet trainingSet() {
        List<Long> measured = history.measured();
        double worst = Double.NEGATIVE_INFINITY;
        for (long i : measured) {
            Result r = history.result(i);
            if (r.isOk()) worst = Math.max(worst, Math.log(r.time()));
        }
        double best = history.best() >= 0 ? Math.log(history.bestTime()) : 0;
        int n = measured.size() + priorX.size();
        double[][] x = new double[n][];
        double[] y = new double[n];
        int k = 0;
        for (long i : measured) {
            Result r = history.result(i);
            x[k] = features(i, 0);
            // A failure is taken as clearly slower than the slowest point that ran.
            y[k++] = (r.isOk() ? Math.log(r.time()) : (Double.isFinite(worst) ? worst + 0.5 : 1)) - best;
        }
        for (int j = 0; j < priorX.size(); j++, k++) {
            x[k] = priorX.get(j);
            y[k] = priorY.get(j);
        }
        // Few points support only main effects; deeper interactions are learnt as data grows.
        int depth = Math.max(1, Math.min(params.depth(), 31 - Integer.numberOfLeadingZeros(Math.max(1, measured.size() / growth))));
        BoostedTrees.Params p = new BoostedTrees.Params(params.trees(), depth, params.rate(), params.minLeaf(), params.subsample());
        return new TrainingSet(x, y, p);
    }

    /** Unproposed points to rank: all of them when few enough, else the best points' surroundings and a random sample. */
    private long[] candidates() {
        ValidPoints v = history.valid();
        if (whole && v.isListed() && v.count() - history.proposedCount() <= pool) {
            return Arrays.stream(v.listed()).filter(i -> !history.isProposed(i)).toArray();
        }
        Set<Long> c = new HashSet<>();
        List<Long> top = history.ranked();
        int near = Math.min(top.size(), LOCAL_TOP);
        for (int t = 0; t < near; t++) {
            for (long i : Moves.hamming(space, top.get(t))) if (!history.isProposed(i)) c.add(i);
        }
        for (int t = 0; t < 4 * pool && c.size() < pool * 3 / 4 && near > 0; t++) {
            long m = Moves.mutate(space, top.get(rng.nextInt(near)), 2.0 / space.dimensions(), rng);
            if (m >= 0 && !history.isProposed(m)) c.add(m);
        }
        for (int t = 0; t < 4 * pool && c.size() < pool; t++) {
            OptionalLong s = v.sample(rng);
            if (s.isEmpty()) break;
            if (!history.isProposed(s.getAsLong())) c.add(s.getAsLong());
        }
        return c.stream().mapToLong(Long::longValue).toArray();
    }

    /** Integer parameters by value, the others by their position in the domain, plus a foreign-record flag. */
    private double[] features(long index, int foreign) {
        if (foreign == 0) return featureCache.computeIfAbsent(index, i -> computeFeatures(i, 0));
        return computeFeatures(index, foreign);
    }

    private double[] computeFeatures(long index, int foreign) {
        int[] c = space.choices(index);
        double[] f = new double[c.length + 1];
        for (int p = 0; p < c.length; p++) {
            Parameter par = space.parameters().get(p);
            f[p] = par.isInteger() ? (Integer) par.values().get(c[p]) : c[p];
        }
        f[c.length] = foreign;
        return f;
    }

    @Override public void tell(long index, Result result) {}
}
