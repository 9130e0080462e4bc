package org.tunefarm.agent.kernels.command;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;

/**
 * Measures command-kernel candidates from the agent itself: re-checks the values the coordinator
 * sent against this board's own declaration, builds the configuration (once, through the cache),
 * runs the program and reads its times. The program does its own warm-up, repetitions and check;
 * its process group is the isolation a worker JVM gives the built-in families.
 */
final class CommandWorker implements Worker {
    private final Map<String, CommandKernel> kernels;
    private final BuildCache cache;

    CommandWorker(Map<String, CommandKernel> kernels, BuildCache cache) {
        this.kernels = kernels;
        this.cache = cache;
    }

    /**
     * A command kernel's program times its own repetitions, so finalists are interleaved by
     * program run: each round runs every finalist once, and the outcomes are each one's runs merged.
     */
    @Override
    public java.util.List<CandidateOutcome> measureInterleaved(KernelKey key, java.util.List<Map<String, Object>> params, MeasureSettings settings) {
        int rounds = Math.max(1, Math.min(3, settings.minSamples()));
        java.util.List<java.util.List<CandidateOutcome>> runs = new java.util.ArrayList<>();
        for (int i = 0; i < params.size(); i++) runs.add(new java.util.ArrayList<>());
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < params.size(); i++) runs.get(i).add(measure(key, params.get(i), settings));
        }
        java.util.List<CandidateOutcome> out = new java.util.ArrayList<>();
        for (java.util.List<CandidateOutcome> rs : runs) out.add(merged(rs));
        return out;
    }

    /** The first failure, or one OK outcome whose samples are all rounds' medians. */
    private static CandidateOutcome merged(java.util.List<CandidateOutcome> rounds) {
        for (CandidateOutcome o : rounds) if (o.status() != Status.OK) return o;
        double[] medians = rounds.stream().mapToDouble(o -> o.stats().medianNs()).toArray();
        return CandidateOutcome.ok(org.tunefarm.measure.Stats.of(medians, 1), rounds.get(0).maxError() == null ? 0 : rounds.get(0).maxError());
    }

    @Override
    public CandidateOutcome measure(KernelKey key, Map<String, Object> params, MeasureSettings settings) {
        CommandKernel k = kernels.get(key.op());
        if (k == null) return CandidateOutcome.failed(Status.CRASH, "this agent has no command kernel '" + key.op() + "' (it has " + kernels.keySet() + ")");
        try {
            k.spec().validate(key);
        } catch (IllegalArgumentException e) {
            return CandidateOutcome.failed(Status.INVALID, e.getMessage());
        }
        var problem = k.spec().problem(params);
        if (problem.isPresent()) return CandidateOutcome.failed(Status.INVALID, "params: " + problem.get());
        Map<String, String> values = values(key, params, settings);
        try {
            CandidateOutcome buildFailure = cache.build(k, values);
            if (buildFailure != null) return buildFailure;
            long timeoutMs = Math.min(k.runTimeoutMs(), settings.timeoutMs());
            CommandProcess.Exit exit = CommandProcess.run(k.run().substitute(values), k.workdir(), timeoutMs);
            if (!exit.ok()) return CandidateOutcome.failed(exit.timedOut() ? Status.TIMEOUT : Status.CRASH, exit.describe("run", timeoutMs));
            return outcome(k.output().read(exit.stdout()), exit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CandidateOutcome.failed(Status.CRASH, "interrupted; the program was killed");
        }
    }

    /** Placeholder values: the shape, the (checked) parameters, and the sweep's seed and sample count. */
    static Map<String, String> values(KernelKey key, Map<String, Object> params, MeasureSettings settings) {
        Map<String, String> v = new HashMap<>();
        key.shape().forEach((d, n) -> v.put(d, String.valueOf(n)));
        params.forEach((p, x) -> v.put(p, String.valueOf(x instanceof Number n ? n.intValue() : x)));
        v.put("seed", String.valueOf(settings.seed()));
        v.put("samples", String.valueOf(settings.minSamples()));
        return v;
    }

    private static CandidateOutcome outcome(OutputFormat.Reading r, CommandProcess.Exit exit) {
        if (r.problem() != null) {
            String out = exit.stdout().strip();
            String tail = out.length() > 500 ? out.substring(out.length() - 500) : out;
            return CandidateOutcome.failed(Status.CRASH, "output: " + r.problem() + (tail.isEmpty() ? "" : "\nstdout: " + tail));
        }
        if (Boolean.FALSE.equals(r.correct())) {
            return CandidateOutcome.failed(Status.WRONG_ANSWER, r.maxError(), "the program reported correct: false" + (r.maxError() != null ? " (max error " + r.maxError() + ")" : ""));
        }
        List<Double> ns = new ArrayList<>();
        for (double ms : r.timesMs()) ns.add(ms * 1e6);
        // Each time is one call timed by the program: one call per sample.
        Stats stats = Stats.of(ns.stream().mapToDouble(Double::doubleValue).toArray(), 1);
        return new CandidateOutcome(Status.OK, stats, r.maxError(), "");
    }

    @Override public void close() {
        // nothing held between candidates: builds live in the cache, each run has ended
    }
}
