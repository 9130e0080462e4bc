package org.tunefarm.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.Harness;
import org.tunefarm.agent.kernels.KernelFamilies;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;
import org.tunefarm.space.SearchSpace;

/**
 * The conv part of {@code bench kernels}: MobileNetV2's conv2d layers, each at 1 and 2 threads,
 * the family default (scalar NCHW loops), our tuned point (a quick seeded search) and im2col +
 * OpenBLAS cblas_sgemm in C at the same thread count, measured back to back. Depthwise layers are
 * a different op (no GEMM baseline of that shape) and are left out.
 */
final class ConvBench {

    /** What the conv part adds to the bench's JSON line. */
    record Result(List<Map<String, Object>> cases, Double geomeanT1, Double geomeanT2, String layers) {}

    private final KernelFamily conv = KernelFamilies.get("conv2d");
    // Its own harness: a harness keeps the last workload, so each layer's inputs are built once.
    private final Harness harness = Harness.create();
    private final Consumer<String> out;

    ConvBench(Consumer<String> out) {
        this.out = out;
    }

    /** The tiny layer of {@code --quick}: a 3x3 padded conv, enough to run every path once. */
    static final ConvLayers.Layer TINY = new ConvLayers.Layer("tiny", Map.of("N", 1, "C", 8, "H", 10, "W", 10, "K", 16,
            "R", 3, "S", 3, "stride", 1, "pad", 1, "dilation", 1), 1);

    Result run(boolean quick, boolean allLayers, int budget, long seed, int cores, OpenBlas blas,
               MeasureSettings brief, MeasureSettings full) throws IOException {
        ConvLayers catalog = ConvLayers.mobileNetV2();
        List<ConvLayers.Layer> layers = quick ? List.of(TINY) : allLayers ? catalog.conv2d() : catalog.subset();
        String which = quick ? "one tiny 8->16 3x3 layer (--quick), not MobileNetV2"
                : allLayers ? "all " + layers.size() + " distinct conv2d layers of MobileNetV2"
                : layers.size() + " of MobileNetV2's " + catalog.conv2d().size() + " distinct conv2d layers ("
                  + String.join(", ", ConvLayers.SUBSET) + "): the 3x3 stride-2 stem and 1x1 expand/project at 112, 56, 14 and 7 px,"
                  + " spanning few-channels-big-image to many-channels-small-image in a third of the time (--all-conv-layers for all)";
        out.accept("conv: " + which + "; tuned by a quick search of " + budget + " points per case");
        out.accept("conv: the " + catalog.depthwise() + " depthwise_conv2d layers are a different op (no im2col + GEMM baseline) and are not part of this comparison");
        String blasMissing = blas.missing() != null ? blas.missing() : blas.convMissing();
        out.accept(blasMissing == null ? "conv: baseline im2col + OpenBLAS cblas_sgemm in C, NCHW, batch 1 (1x1 stride-1 layers skip the copy)"
                : "conv: baseline omitted, " + blasMissing + "; the geomean stays null");
        TunedSearch search = new TunedSearch(conv, harness, out, ConvPoint::name);

        List<Map<String, Object>> cases = new ArrayList<>();
        List<List<Double>> ratios = List.of(new ArrayList<>(), new ArrayList<>());
        for (ConvLayers.Layer layer : layers) {
            KernelKey key = ConvPoint.key(layer.shape());
            double flops = conv.spec().flops(key);
            for (int threads = 1; threads <= Math.min(2, cores); threads++) {
                SearchSpace space = ConvPoint.space(key, cores, threads);
                Map<String, Object> point = search.run(key, space, ConvPoint.startingPoints(space, key, cores, threads),
                        threads, budget, seed + threads, brief, full);
                // Back to back, so drift on this shared machine touches all three alike.
                Double def = gflops(flops, harness.measure(conv, key, conv.spec().defaultConfig(key, cores), full));
                Double tuned = point == null ? null : gflops(flops, harness.measure(conv, key, point, full));
                Double im2col = blasMissing != null ? null : flops / blas.convMedianNs(key, threads, full.minSamples(), full.minSampleMs());
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("case", "conv " + ConvPoint.describe(layer.name(), key) + " t" + threads);
                c.put("layer", layer.name());
                c.put("countInNetwork", layer.count());
                c.put("defaultGflops", KernelsCommand.r(def));
                c.put("tunedGflops", KernelsCommand.r(tuned));
                c.put("tunedPoint", point == null ? null : ConvPoint.name(point));
                c.put("im2colOpenblasGflops", KernelsCommand.r(im2col));
                c.put("tunedOverIm2colOpenblas", KernelsCommand.ratio(tuned, im2col));
                cases.add(c);
                // Unrounded, so the geomean does not carry each ratio's rounding.
                ratios.get(threads - 1).add(tuned == null || im2col == null ? null : tuned / im2col);
                out.accept(String.format(Locale.ROOT, "%-44s default %7s  tuned %7s  im2col+openblas %7s  GFLOP/s   tuned/im2col+openblas %s   [%s]",
                        c.get("case"), c.get("defaultGflops"), c.get("tunedGflops"), c.get("im2colOpenblasGflops"),
                        c.get("tunedOverIm2colOpenblas"), c.get("tunedPoint")));
            }
        }
        Double g1 = geomean(ratios.get(0)), g2 = geomean(ratios.get(1));
        out.accept(String.format(Locale.ROOT, "conv: tuned / im2col+openblas geomean over %d layers: t1 %s, t2 %s",
                layers.size(), KernelsCommand.r(g1), KernelsCommand.r(g2)));
        return new Result(cases, KernelsCommand.r(g1), KernelsCommand.r(g2), which);
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
