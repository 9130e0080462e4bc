package org.tunefarm.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.FamilyLookup;
import org.tunefarm.agent.harness.Retakes;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.agent.kernels.KernelFamilies;
import org.tunefarm.agent.worker.WorkerCommand;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tunefarm bench fidelity}: measures the same GEMM points twice in one run, forward and
 * then in reverse order, through the real harness in a worker JVM (as an agent runs a batch: one
 * worker for the run, so JIT state and heat carried from earlier points are part of what is
 * tested), and reports how well the two rankings agree. A harness whose ranking depends on the
 * order of measurement would rank the first pass's early points differently from the second's.
 * Then twice more as finalists are measured, all points interleaved sample by sample, in each
 * order: on a host whose slow spells last longer than one point's samples, the first pair shows
 * what those spells do to a batch's ranking, the second what interleaving leaves of it.
 */
@Command(name = "fidelity", mixinStandardHelpOptions = true,
        description = "Rank 20 GEMM points twice (forward, reversed), one by one and interleaved; report Kendall tau, median CV, max rank shift.")
final class FidelityCommand implements Callable<Integer> {

    /** The targets {@code targetsMet} judges by: ranks that agree (tau), samples that agree (median CV). */
    static final double TARGET_TAU = 0.95;
    static final double TARGET_CV = 0.02;

    @Option(names = "--quick", description = "A few points of a small shape: a smoke test, not a measurement.")
    boolean quick;

    @Option(names = "--in-process", description = "Measure in this JVM instead of a worker JVM (for comparison).")
    boolean inProcess;

    @Option(names = "--min-samples", description = "Samples per measurement (default: the sweep default).")
    Integer minSamples;

    @Option(names = "--min-sample-ms", description = "Shortest sample in ms (default: the sweep default).")
    Double minSampleMs;

    @Override public Integer call() {
        List<Map<String, Object>> points = quick ? FidelityPoints.GEMM_QUICK : FidelityPoints.GEMM_512;
        KernelKey key = quick ? GemmPoint.key(64, 64, 64) : GemmPoint.key(512, 512, 512);
        MeasureSettings settings = quick ? new MeasureSettings(3, 1.0, 50, 0.1, 30_000, 42) : MeasureSettings.DEFAULTS;
        if (minSamples != null) settings = settings.withMinSamples(minSamples);
        if (minSampleMs != null) settings = settings.withMinSampleMs(minSampleMs);
        double flops = 2.0 * key.dim("M") * key.dim("N") * key.dim("K");
        System.out.printf(Locale.ROOT, "fidelity: %d points of %s, %s, %d samples of >= %.0f ms each, forward then reversed%n",
                points.size(), key.id(), inProcess ? "in this JVM" : "in a worker JVM", settings.minSamples(), settings.minSampleMs());

        int n = points.size();
        CandidateOutcome[] forward = new CandidateOutcome[n], reversed = new CandidateOutcome[n];
        CandidateOutcome[] forwardMixed, reversedMixed = new CandidateOutcome[n];
        long started = System.nanoTime();
        double oneByOneSeconds;
        try (Worker worker = inProcess ? Worker.inProcess(KernelFamilies::get) : WorkerCommand.current().newWorker()) {
            // Measured as an agent measures a batch: one point after another, a point too noisy to rank taken again (Retakes).
            for (int i = 0; i < n; i++) forward[i] = Retakes.measure(worker, key, points.get(i), settings, Fidelity.DEFAULTS).outcome();
            for (int i = n - 1; i >= 0; i--) reversed[i] = Retakes.measure(worker, key, points.get(i), settings, Fidelity.DEFAULTS).outcome();
            oneByOneSeconds = (System.nanoTime() - started) / 1e9;
            // Measured as an agent measures finalists: all points at once, samples round-robin, in each order.
            forwardMixed = worker.measureInterleaved(key, points, settings).toArray(CandidateOutcome[]::new);
            List<CandidateOutcome> back = worker.measureInterleaved(key, points.reversed(), settings);
            for (int i = 0; i < n; i++) reversedMixed[i] = back.get(n - 1 - i);
        }
        double seconds = (System.nanoTime() - started) / 1e9;

        System.out.println("one point after another (a batch):");
        Agreement oneByOne = Agreement.of(points, forward, reversed, flops);
        System.out.println("interleaved, A B C ... (finalists):");
        Agreement interleaved = Agreement.of(points, forwardMixed, reversedMixed, flops);

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("bench", "fidelity");
        json.put("shape", key.id());
        json.put("points", n);
        json.put("worker", inProcess ? "in-process" : "worker-jvm");
        json.put("kendallTau", round(oneByOne.tau));
        json.put("medianCv", round(oneByOne.medianCv));
        json.put("maxRankShift", oneByOne.maxRankShift);
        json.put("maxCv", round(oneByOne.maxCv));
        json.put("medianRelDiff", round(oneByOne.medianRelDiff));
        json.put("failures", oneByOne.failures);
        json.put("interleavedKendallTau", round(interleaved.tau));
        json.put("interleavedMedianCv", round(interleaved.medianCv));
        json.put("interleavedMaxRankShift", interleaved.maxRankShift);
        json.put("interleavedMedianRelDiff", round(interleaved.medianRelDiff));
        json.put("interleavedFailures", interleaved.failures);
        json.put("minSamples", settings.minSamples());
        json.put("minSampleMs", settings.minSampleMs());
        json.put("seconds", round(seconds));
        json.put("oneByOneSeconds", round(oneByOneSeconds));
        json.put("targetsMet", oneByOne.meets());
        json.put("interleavedTargetsMet", interleaved.meets());
        JsonLine.print(json);
        return 0;
    }

    /** How well two passes over the same points agree, printed point by point as it is computed. */
    private record Agreement(double tau, double medianCv, double maxCv, int maxRankShift, double medianRelDiff, int failures) {

        static Agreement of(List<Map<String, Object>> points, CandidateOutcome[] forward, CandidateOutcome[] reversed, double flops) {
            int n = points.size();
            List<String> failures = new ArrayList<>();
            double[] first = new double[n], second = new double[n];
            List<Double> cvs = new ArrayList<>();
            double maxCv = 0;
            System.out.printf("%-36s %10s %10s %7s %7s %8s%n", "point", "fwd ms", "rev ms", "cv fwd", "cv rev", "GFLOP/s");
            for (int i = 0; i < n; i++) {
                String name = GemmPoint.name(points.get(i));
                if (forward[i].status() != Status.OK || reversed[i].status() != Status.OK) {
                    failures.add(name + ": " + forward[i].status() + "/" + reversed[i].status() + " " + forward[i].detail() + reversed[i].detail());
                    first[i] = second[i] = Double.MAX_VALUE;
                    continue;
                }
                first[i] = forward[i].stats().medianNs();
                second[i] = reversed[i].stats().medianNs();
                cvs.add(forward[i].stats().cv());
                cvs.add(reversed[i].stats().cv());
                maxCv = Math.max(maxCv, Math.max(forward[i].stats().cv(), reversed[i].stats().cv()));
                System.out.printf(Locale.ROOT, "%-36s %10.3f %10.3f %7.4f %7.4f %8.1f%n", name, first[i] / 1e6, second[i] / 1e6,
                        forward[i].stats().cv(), reversed[i].stats().cv(), flops / Math.min(first[i], second[i]));
            }
            failures.forEach(f -> System.out.println("FAILED " + f));
            double medianCv = cvs.isEmpty() ? Double.NaN : Ranking.median(cvs.stream().mapToDouble(Double::doubleValue).toArray());
            return new Agreement(Ranking.kendallTau(first, second), medianCv, maxCv, Ranking.maxRankShift(first, second),
                    medianRelativeDifference(first, second), failures.size());
        }

        boolean meets() {
            return tau >= TARGET_TAU && medianCv <= TARGET_CV;
        }
    }

    /** Median over points of |fwd - rev| / min(fwd, rev): how far apart the two passes' figures are. */
    private static double medianRelativeDifference(double[] a, double[] b) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) d[i] = Math.abs(a[i] - b[i]) / Math.min(a[i], b[i]);
        return Ranking.median(d);
    }

    static Double round(double v) {
        return Double.isFinite(v) ? Math.round(v * 1e4) / 1e4 : null;
    }
}
