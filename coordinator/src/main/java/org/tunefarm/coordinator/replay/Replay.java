package org.tunefarm.coordinator.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.IntStream;

import org.tunefarm.coordinator.strategy.Result;
import org.tunefarm.coordinator.strategy.Strategies;
import org.tunefarm.coordinator.strategy.Strategy;
import org.tunefarm.replay.RecordedSpace;

/**
 * Tunes without hardware: drives a strategy against a recorded space, answering each proposal with
 * the recorded time, for a budget of evaluations and several seeds, and scores it by fraction of
 * optimum at budget checkpoints. With {@code concurrency} above 1, that many proposals are kept
 * out and answered in random order, as agents pulling from a farm would.
 */
public final class Replay {
    /** The fixed checkpoints; the budget itself is always added. */
    public static final List<Integer> CHECKPOINTS = List.of(10, 20, 50, 100, 200, 400);

    private final RecordedSpace recorded;
    private final int budget;
    private final int seeds;
    private final int concurrency;

    public Replay(RecordedSpace recorded, int budget, int seeds, int concurrency) {
        if (budget <= 0 || seeds <= 0 || concurrency <= 0) throw new IllegalArgumentException("budget, seeds and concurrency must be positive");
        this.recorded = recorded;
        this.budget = budget;
        this.seeds = seeds;
        this.concurrency = concurrency;
    }

    public List<Integer> checkpoints() {
        TreeSet<Integer> cs = new TreeSet<>();
        for (int c : CHECKPOINTS) if (c <= budget) cs.add(c);
        cs.add(budget);
        return List.copyOf(cs);
    }

    /** Runs one strategy over every seed (in parallel) and summarises. */
    public Report run(String strategy, Map<String, ?> options) {
        long t0 = System.nanoTime();
        double[][] curves = IntStream.range(0, seeds).parallel().mapToObj(s -> curve(strategy, options, s)).toArray(double[][]::new);
        double seconds = (System.nanoTime() - t0) / 1e9;
        List<Report.Checkpoint> cs = new ArrayList<>();
        for (int c : checkpoints()) {
            double[] at = Arrays.stream(curves).mapToDouble(cv -> cv[c]).sorted().toArray();
            cs.add(new Report.Checkpoint(c, Arrays.stream(at).average().orElse(0), median(at)));
        }
        return new Report(strategy, recorded.name(), recorded.size(), recorded.optimum(), cs,
                evaluationsTo(curves, 0.95), evaluationsTo(curves, 0.98), seconds);
    }

    /** Random search's exact expectation on this space. */
    public Report randomExpectation() {
        return new RandomExpectation(recorded.okTimes(), recorded.size()).report(recorded.name(), checkpoints());
    }

    /** curve[e] = fraction of optimum after e evaluations (curve[0] = 0). */
    double[] curve(String strategy, Map<String, ?> options, int seed) {
        Map<String, Object> o = new HashMap<>(options);
        o.put("budget", budget);
        Strategy s = Strategies.create(strategy, recorded.space(), o, seed);
        SplittableRandom order = new SplittableRandom(seed * 7919L + 17);
        double[] curve = new double[budget + 1];
        List<Long> out = new ArrayList<>();
        double best = Double.POSITIVE_INFINITY;
        int e = 0;
        while (e < budget) {
            if (out.size() < concurrency) out.addAll(s.propose(concurrency - out.size()));
            if (out.isEmpty()) break; // finished: nothing out, nothing new
            long i = out.remove(concurrency == 1 ? 0 : order.nextInt(out.size()));
            OptionalDouble t = recorded.time(i);
            s.tell(i, t.isPresent() ? Result.ok(t.getAsDouble()) : Result.failed(recorded.failure(i)));
            if (t.isPresent()) best = Math.min(best, t.getAsDouble());
            curve[++e] = Double.isFinite(best) ? recorded.optimum() / best : 0;
        }
        for (int k = e + 1; k <= budget; k++) curve[k] = curve[e];
        return curve;
    }

    private Double evaluationsTo(double[][] curves, double target) {
        double[] firsts = new double[curves.length];
        for (int s = 0; s < curves.length; s++) {
            firsts[s] = Double.POSITIVE_INFINITY;
            for (int e = 1; e < curves[s].length; e++) {
                if (curves[s][e] >= target - 1e-12) {
                    firsts[s] = e;
                    break;
                }
            }
        }
        Arrays.sort(firsts);
        double m = median(firsts);
        return Double.isFinite(m) ? m : null;
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
