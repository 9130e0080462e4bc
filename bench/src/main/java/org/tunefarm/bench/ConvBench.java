package org.tunefarm.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.agent.kernels.KernelFamilies;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.worker.WorkerCommand;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;
import org.tunefarm.space.SearchSpace;

/**
 * The conv part of {@code bench kernels}: MobileNetV2's layers by type, each at 1 and 2 threads, in
 * interleaved repetitions as the GEMM cases (each round: the family default, our tuned point from a
 * quick seeded search, the baseline; every side sampled by the harness's rule and summarised by the
 * same statistic; each Java point in a worker JVM of its own). conv2d layers (the 3-channel stem,
 * the 1x1 pointwise layers) against im2col + OpenBLAS cblas_sgemm in C; depthwise layers against a
 * direct C loop built with -O3 -march=native ({@link DirectDepthwise}). The copy of im2col, like
 * every layout change of ours, is inside the timed call on both sides.
 */
final class ConvBench {

    /** What the conv part adds to the bench's JSON line. */
    record Result(List<Map<String, Object>> cases, Double geomeanT1, Double geomeanT2, String layers, Map<String, Object> byType) {}

    /** A baseline's one measurement of a case, in ns per call. */
    @FunctionalInterface
    private interface Baseline {
        double medianNs() throws IOException;
    }

    private final KernelFamily conv = KernelFamilies.get("conv2d");
    private final KernelFamily depthwise = KernelFamilies.get("depthwise_conv2d");
    private final Consumer<String> out;

    ConvBench(Consumer<String> out) {
        this.out = out;
    }

    /** The tiny layers of {@code --quick}: a 3x3 padded conv and a depthwise one, enough to run every path once. */
    static final ConvLayers.Layer TINY = new ConvLayers.Layer("tiny", Map.of("N", 1, "C", 8, "H", 10, "W", 10, "K", 16,
            "R", 3, "S", 3, "stride", 1, "pad", 1, "dilation", 1), 1);
    static final ConvLayers.Layer TINY_DW = new ConvLayers.Layer("tiny-dw", Map.of("N", 1, "C", 16, "H", 10, "W", 10,
            "R", 3, "S", 3, "stride", 1, "pad", 1), 1);

    Result run(boolean quick, boolean allLayers, int budget, int reps, long seed, int cores, OpenBlas blas,
               MeasureSettings brief, MeasureSettings full) throws IOException {
        ConvLayers catalog = ConvLayers.mobileNetV2();
        List<ConvLayers.Layer> layers = quick ? List.of(TINY) : allLayers ? catalog.conv2d() : catalog.subset();
        List<ConvLayers.Layer> dwLayers = quick ? List.of(TINY_DW) : allLayers ? catalog.depthwise() : catalog.depthwiseSubset();
        String which = quick ? "one tiny 8->16 3x3 layer and one tiny depthwise layer (--quick), not MobileNetV2"
                : allLayers ? "all " + layers.size() + " distinct conv2d and " + dwLayers.size() + " depthwise layers of MobileNetV2"
                : layers.size() + " of MobileNetV2's " + catalog.conv2d().size() + " distinct conv2d layers ("
                  + String.join(", ", ConvLayers.SUBSET) + ": the 3x3 stride-2 stem and 1x1 expand/project at 112, 56, 14 and 7 px) and "
                  + dwLayers.size() + " of its " + catalog.depthwise().size() + " depthwise layers (" + String.join(", ", ConvLayers.DEPTHWISE_SUBSET)
                  + "); --all-conv-layers for all";
        out.accept("conv: " + which + "; tuned by a quick search of " + budget + " points per case; " + reps + " interleaved rounds per case");
        String blasMissing = blas.missing() != null ? blas.missing() : blas.convMissing();
        out.accept(blasMissing == null ? "conv: conv2d baseline im2col + OpenBLAS cblas_sgemm in C, NCHW, batch 1 (1x1 stride-1 layers skip the copy)"
                : "conv: conv2d baseline omitted, " + blasMissing + "; its ratios stay null");
        DirectDepthwise direct = DirectDepthwise.find();
        out.accept(direct.missing() == null ? "conv: depthwise baseline a direct C loop (gcc -O3 -march=native, OpenMP over channels)"
                : "conv: depthwise baseline omitted, " + direct.missing() + "; its ratios stay null");

        List<Map<String, Object>> cases = new ArrayList<>();
        Map<String, List<List<Double>>> ratiosByType = new TreeMap<>();
        for (ConvLayers.Layer layer : layers) {
            KernelKey key = ConvPoint.key(layer.shape());
            for (int threads = 1; threads <= Math.min(2, cores); threads++) {
                SearchSpace space = ConvPoint.space(key, cores, threads);
                Map<String, Object> point;
                try (Worker worker = WorkerCommand.current().newWorker()) {
                    point = TunedSearch.inWorker(worker, out, ConvPoint::name).run(key, space, ConvPoint.startingPoints(space, key, threads),
                            threads, budget, seed + threads, brief, full);
                }
                int t = threads;
                Baseline im2col = blasMissing != null ? null : () -> blas.conv(key, t, full.minSamples(), full.minSampleMs()).medianNs();
                Map<String, Object> c = compare(conv, key, layer, threads, point, point == null ? null : ConvPoint.name(point), im2col, "im2colOpenblas",
                        "conv " + ConvPoint.describe(layer.name(), key), reps, full, ratiosByType);
                cases.add(c);
            }
        }
        for (ConvLayers.Layer layer : dwLayers) {
            KernelKey key = DepthwisePoint.key(layer.shape());
            for (int threads = 1; threads <= Math.min(2, cores); threads++) {
                SearchSpace space = DepthwisePoint.space(key, cores, threads);
                Map<String, Object> point;
                try (Worker worker = WorkerCommand.current().newWorker()) {
                    point = TunedSearch.inWorker(worker, out, DepthwisePoint::name).run(key, space, DepthwisePoint.startingPoints(space, key, threads),
                            threads, budget, seed + threads, brief, full);
                }
                int t = threads;
                Baseline loop = direct.missing() != null ? null : () -> direct.measure(key, t, full.minSamples(), full.minSampleMs()).medianNs();
                cases.add(compare(depthwise, key, layer, threads, point, point == null ? null : DepthwisePoint.name(point), loop, "directC",
                        "depthwise " + DepthwisePoint.describe(layer.name(), key), reps, full, ratiosByType));
            }
        }
        Map<String, Object> byType = new LinkedHashMap<>();
        ratiosByType.forEach((type, perThreads) -> {
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("baseline", type.equals("depthwise") ? "direct C loop, gcc -O3 -march=native" : "im2col + OpenBLAS");
            g.put("layers", perThreads.get(0).size());
            g.put("t1", KernelsCommand.r(geomean(perThreads.get(0))));
            g.put("t2", KernelsCommand.r(geomean(perThreads.get(1))));
            byType.put(type, g);
            out.accept(String.format(Locale.ROOT, "conv: %-10s tuned / %s geomean over %d layers: t1 %s, t2 %s",
                    type, g.get("baseline"), perThreads.get(0).size(), g.get("t1"), g.get("t2")));
        });
        List<Double> t1 = new ArrayList<>(), t2 = new ArrayList<>();
        ratiosByType.forEach((type, perThreads) -> {
            if (type.equals("depthwise")) return;
            t1.addAll(perThreads.get(0));
            t2.addAll(perThreads.get(1));
        });
        Double g1 = geomean(t1), g2 = geomean(t2);
        out.accept(String.format(Locale.ROOT, "conv: conv2d tuned / im2col+openblas geomean over %d layers: t1 %s, t2 %s",
                layers.size(), KernelsCommand.r(g1), KernelsCommand.r(g2)));
        return new Result(cases, KernelsCommand.r(g1), KernelsCommand.r(g2), which, byType);
    }

    /**
     * One layer at one thread count: {@code reps} interleaved rounds of the default (at the same
     * threads), the tuned point and the baseline; the case's figures and ratios (medians over the
     * rounds, with their spread), its ratio to the baseline added to its type's list.
     */
    private Map<String, Object> compare(KernelFamily family, KernelKey key, ConvLayers.Layer layer, int threads,
                                        Map<String, Object> point, String pointName, Baseline baseline, String baselineName, String caseName,
                                        int reps, MeasureSettings full, Map<String, List<List<Double>>> ratiosByType) throws IOException {
        double flops = family.spec().flops(key);
        Map<String, Object> defaultPoint = new LinkedHashMap<>(family.spec().defaultConfig(key, threads));
        defaultPoint.put("threads", threads);
        Series def = new Series(), tuned = new Series(), base = new Series();
        // Each Java point in a worker JVM of its own for all the case's rounds (WarmWorker): measured
        // here, after the searches had run other points, the pointwise layers' tuned points read
        // 0.73-0.99x of im2col + OpenBLAS on one thread on a Zen 5. The tuned point and the baseline
        // swap places every other round, as the GEMM cases' do.
        try (WarmWorker defaultJvm = WarmWorker.start(key, defaultPoint, full);
             WarmWorker tunedJvm = point == null ? null : WarmWorker.start(key, point, full)) {
            for (int rep = 0; rep < reps; rep++) {
                def.add(gflops(flops, defaultJvm.measure()));
                List<KernelsCommand.Step> pair = List.of(
                        () -> tuned.add(tunedJvm == null ? null : gflops(flops, tunedJvm.measure())),
                        () -> base.add(baseline == null ? null : flops / baseline.medianNs()));
                for (KernelsCommand.Step step : rep % 2 == 0 ? pair : pair.reversed()) step.run();
            }
        }
        Series ratio = Series.ratio(tuned, base);
        String type = ConvLayers.type(family.spec().op(), layer.shape());
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("case", caseName + " t" + threads);
        c.put("layer", layer.name());
        c.put("type", type);
        c.put("countInNetwork", layer.count());
        c.put("repetitions", reps);
        c.put("defaultGflops", KernelsCommand.r(def.median()));
        c.put("tunedGflops", KernelsCommand.r(tuned.median()));
        c.put("tunedPoint", point == null ? null : pointName);
        c.put(baselineName + "Gflops", KernelsCommand.r(base.median()));
        String over = "tunedOver" + Character.toUpperCase(baselineName.charAt(0)) + baselineName.substring(1);
        c.put(over, KernelsCommand.r(ratio.median()));
        c.put(over + "Min", KernelsCommand.r(ratio.min()));
        c.put(over + "Max", KernelsCommand.r(ratio.max()));
        // Unrounded, so the geomean does not carry each ratio's rounding.
        ratiosByType.computeIfAbsent(type, x -> List.of(new ArrayList<>(), new ArrayList<>())).get(threads - 1).add(ratio.median());
        out.accept(String.format(Locale.ROOT, "%-46s default %7s  tuned %7s  %s %7s  GFLOP/s   tuned/%s %s [%s..%s]   [%s]",
                c.get("case"), c.get("defaultGflops"), c.get("tunedGflops"), baselineName, c.get(baselineName + "Gflops"), baselineName,
                c.get(over), c.get(over + "Min"), c.get(over + "Max"), c.get("tunedPoint")));
        return c;
    }

    private Double gflops(double flops, CandidateOutcome o) {
        if (o.status() != Status.OK) {
            out.accept("  failed: " + o.status() + " " + o.detail());
            return null;
        }
        return flops / o.stats().medianNs();
    }

    /** Null when any ratio is missing (a geomean over fewer layers would not compare across runs) or there are none. */
    static Double geomean(List<Double> ratios) {
        if (ratios.isEmpty() || ratios.contains(null)) return null;
        double logs = 0;
        for (double r : ratios) logs += Math.log(r);
        return Math.exp(logs / ratios.size());
    }
}
