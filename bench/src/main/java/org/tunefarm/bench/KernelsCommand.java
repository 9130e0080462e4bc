package org.tunefarm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.Harness;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.agent.kernels.KernelFamilies;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.agent.worker.WorkerCommand;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tunefarm bench kernels}: for each GEMM case (shape x threads), in one process and in
 * interleaved rounds: the family default, the tuned point (a quick search, or a table), EJML,
 * OpenBLAS and, for batch-1, the read roofline ({@link ReadBandwidth}), beside naive i-j-k (once)
 * and the theoretical peak; then MobileNetV2's layers by type ({@link ConvBench}). Java variants go
 * through the same in-process harness, the C programs sample by the same rule ({@code sampling.h}),
 * and every side gets the same statistic. Figures are medians; ratios are medians over rounds.
 */
@Command(name = "kernels", mixinStandardHelpOptions = true,
        description = "GEMM: default, tuned, EJML, OpenBLAS (and a read roofline at M=1) in interleaved rounds; MobileNetV2 conv2d vs im2col + OpenBLAS, depthwise vs direct C.")
final class KernelsCommand implements Callable<Integer> {

    @Option(names = "--quick", description = "Small shapes and few samples: a smoke test, not a measurement.")
    boolean quick;

    @Option(names = "--openblas-core", description = "Run OpenBLAS, GEMM and conv baselines alike, on this kernel set (OPENBLAS_CORETYPE,"
            + " e.g. SkylakeX) instead of the one it picks; its figures then stand for that set (openblasCore says which ran).")
    String openblasCore;

    @Option(names = "--table", description = "Take tuned points from this exported table instead of searching.")
    Path table;

    @Option(names = "--budget", description = "Points the quick search measures per case (default: ${DEFAULT-VALUE}).", defaultValue = "24")
    int budget;

    @Option(names = "--conv-budget", description = "Points the quick search measures per conv case (default: ${DEFAULT-VALUE}).", defaultValue = "10")
    int convBudget;

    @Option(names = "--all-conv-layers", description = "Every distinct conv2d and depthwise layer of MobileNetV2, not the default subsets (about 3x the conv time).")
    boolean allConvLayers;

    @Option(names = "--conv-only", description = "Skip the GEMM cases: a quicker rerun of the conv comparison.")
    boolean convOnly;

    @Option(names = "--gemm-only", description = "Skip the conv comparison: a quicker rerun of the GEMM cases.")
    boolean gemmOnly;

    @Option(names = "--repetitions", description = "Interleaved rounds of each GEMM and conv case; ratios are their median (default: ${DEFAULT-VALUE}).",
            defaultValue = "5")
    int repetitions;

    @Option(names = "--narrow-bits", description = "Also tune and measure each GEMM case at this forced vector width, beside the native width,"
            + " each in a worker JVM, in the same rounds (0: not; default: ${DEFAULT-VALUE}, NEON's width).", defaultValue = "128")
    int narrowBits;

    @Option(names = "--seed", description = "Seed of the search and of the inputs (default: ${DEFAULT-VALUE}).", defaultValue = "7")
    long seed;

    /** One variant's measurement in a round; the C programs' may fail to start. */
    interface Step {
        void run() throws IOException;
    }

    private final KernelFamily gemm = KernelFamilies.get("gemm");
    private final ReferenceGemmFamily reference = new ReferenceGemmFamily();
    // Keeps the last workload, so a case's inputs are built once.
    private final Harness referenceHarness = Harness.create();

    @Override public Integer call() throws IOException {
        int cores = Runtime.getRuntime().availableProcessors();
        List<int[]> shapes = convOnly ? List.<int[]>of() : quick ? List.of(new int[] {64, 64, 64}, new int[] {1, 256, 256})
                : List.of(new int[] {512, 512, 512}, new int[] {1024, 1024, 1024}, new int[] {1, 4096, 4096});
        MeasureSettings full = quick ? new MeasureSettings(3, 1.0, 100, 0.1, 30_000, seed) : MeasureSettings.DEFAULTS.withSeed(seed);
        MeasureSettings brief = quick ? full : new MeasureSettings(5, 5.0, 300, 0.1, 30_000, seed);
        // The naive loop takes seconds per call at 1024^3: few samples, a long timeout.
        MeasureSettings slow = full.withMinSamples(3).withMaxWarmupMs(0).withTimeoutMs(300_000);
        int searchBudget = quick ? 3 : budget;

        Peak peak = Peak.measure();
        System.out.println("peak: " + peak.describe());
        OpenBlas blas = OpenBlas.find(openblasCore);
        System.out.println(blas.missing() == null ? "openblas: cblas_sgemm via a C program (gcc, libopenblas)" : "openblas: omitted, " + blas.missing());
        String blasCore = blas.core(null), isaCore = isaCore(blas, blasCore);
        if (blasCore != null) System.out.println("openblas: runs its kernel set " + blasCore + " here"
                + (isaCore != null ? "; its " + isaCore + " set, for this CPU's AVX-512, is measured beside it (" + OpenBlas.CORE_TYPE + "=" + isaCore + ")" : ""));
        TunedPoints tuned = table != null ? TunedPoints.fromTable(table) : null;

        ReadBandwidth stream = ReadBandwidth.find();
        System.out.println(stream.missing() == null ? "roofline: one read pass of B per call (stream_read.c, OpenMP)" : "roofline: omitted, " + stream.missing());
        int reps = quick ? 2 : repetitions;
        boolean narrowToo = NarrowWidth.applies(narrowBits);
        System.out.println(narrowToo ? "narrow: each case also at " + narrowBits + " bits, in a worker JVM beside one at " + VectorWidth.bits()
                : "narrow: none (this JVM's kernels are " + VectorWidth.bits() + " bits wide)");
        List<Map<String, Object>> cases = new ArrayList<>();
        for (int[] s : shapes) {
            Double naive = null;
            Series defaultT1 = null;
            try (NarrowWidth narrow = narrowToo ? NarrowWidth.open(narrowBits) : null) {
                for (int threads = 1; threads <= Math.min(2, cores); threads++) {
                    KernelKey key = GemmPoint.key(s[0], s[1], s[2]);
                    KernelKey refKey = ReferenceGemmFamily.key(s[0], s[1], s[2]);
                    double flops = 2.0 * s[0] * s[1] * s[2];
                    Map<String, Object> point;
                    if (tuned != null) point = tuned.point(key, threads);
                    else try (Worker worker = WorkerCommand.current().newWorker()) {
                        point = TunedSearch.inWorker(worker, System.out::println, GemmPoint::name).run(key, cores, threads, searchBudget, seed + threads, brief, full);
                    }
                    List<Map<String, Object>> widthPoints = narrow == null ? null
                            : narrow.search(key, cores, threads, searchBudget, seed + threads, brief, full, System.out::println);
                    if (threads == 1) naive = gflops(flops, referenceHarness.measure(reference, refKey, Map.of("impl", "naive", "threads", 1), slow));
                    Map<String, Object> defaultPoint = gemm.spec().defaultConfig(key, cores);
                    Map<String, Object> defaultAtThreads = new LinkedHashMap<>(defaultPoint);
                    defaultAtThreads.put("threads", threads);
                    Series def = new Series(), tunedG = new Series(), ejml = new Series(), openblas = new Series(), roof = new Series();
                    Series nativeW = new Series(), narrowW = new Series(), openblasIsa = new Series();
                    // Interleaved: each repetition measures every variant once, with the same sample count
                    // and the same statistic (the harness's, for the C programs too), in reversed order
                    // every other round so neither side always follows the other. The tuned point runs next
                    // to the sides its targets answer to (OpenBLAS, the read roofline at M = 1, OpenBLAS's
                    // AVX-512 set where it is measured): a slow stretch of the host (its read bandwidth
                    // drifted between 28 and 45 GB/s within minutes on the Zen 5) tends to hit both of a pair.
                    for (int rep = 0; rep < reps; rep++) {
                        def.add(gflops(flops, WarmWorker.once(key, defaultAtThreads, full)));
                        int t = threads;
                        List<Step> compared = new ArrayList<>();
                        compared.add(() -> openblas.add(blas.missing() != null ? null
                                : flops / blas.gemm(s[0], s[1], s[2], t, full.minSamples(), full.minSampleMs()).medianNs()));
                        if (s[0] == 1) compared.add(() -> roof.add(stream.missing() != null ? null
                                : flops / stream.pass((long) s[1] * s[2], t, full.minSamples(), full.minSampleMs()).medianNs()));
                        compared.add(() -> tunedG.add(point == null ? null : gflops(flops, WarmWorker.once(key, point, full))));
                        if (isaCore != null) compared.add(() -> openblasIsa.add(
                                flops / blas.gemm(s[0], s[1], s[2], t, full.minSamples(), full.minSampleMs(), isaCore).medianNs()));
                        for (Step step : rep % 2 == 0 ? compared : compared.reversed()) step.run();
                        ejml.add(gflops(flops, referenceHarness.measure(reference, refKey,
                                Map.of("impl", threads == 1 ? "ejml" : "ejml-mt", "threads", threads), full)));
                        if (narrow != null) {
                            Double[] g = narrow.round(key, widthPoints, full, flops, rep);
                            nativeW.add(g[0]);
                            narrowW.add(g[1]);
                        }
                    }
                    if (threads == 1) defaultT1 = def;
                    Map<String, Object> c = new LinkedHashMap<>();
                    c.put("case", "gemm " + s[0] + "x" + s[1] + "x" + s[2] + " t" + threads);
                    c.put("repetitions", reps);
                    c.put("naiveGflops", r(naive));
                    c.put("defaultGflops", r(def.median()));
                    c.put("tunedGflops", r(tunedG.median()));
                    c.put("tunedPoint", point == null ? null : GemmPoint.name(point));
                    c.put("ejmlGflops", r(ejml.median()));
                    c.put("openblasGflops", r(openblas.median()));
                    c.put("peakGflops", r(peak.gflops(threads)));
                    spread(c, "tunedOverOpenblas", Series.ratio(tunedG, openblas));
                    if (isaCore != null) {
                        c.put("openblasIsaGflops", r(openblasIsa.median()));
                        spread(c, "tunedOverOpenblasIsa", Series.ratio(tunedG, openblasIsa));
                    }
                    spread(c, "tunedOverEjml", Series.ratio(tunedG, ejml));
                    // Against the default at the same threads, and against the 1-thread default a user starts from.
                    spread(c, "tunedOverDefault", Series.ratio(tunedG, def));
                    spread(c, "tunedOverDefaultT1", Series.ratio(tunedG, defaultT1));
                    if (s[0] == 1) {
                        c.put("rooflineGflops", r(roof.median()));
                        spread(c, "tunedOverRoofline", Series.ratio(tunedG, roof));
                    }
                    if (narrow != null) {
                        c.put("narrowBits", narrow.bits());
                        c.put("nativeInWorkerPoint", widthPoints.get(0) == null ? null : GemmPoint.name(widthPoints.get(0)));
                        c.put("narrowInWorkerPoint", widthPoints.get(1) == null ? null : GemmPoint.name(widthPoints.get(1)));
                        c.put("nativeInWorkerGflops", r(nativeW.median()));
                        c.put("narrowInWorkerGflops", r(narrowW.median()));
                        spread(c, "narrowOverNative", Series.ratio(narrowW, nativeW));
                        // The same ratio per lane: 0.45 at half the lanes (AVX2 to 128) is 0.9 per lane,
                        // 0.25 at a quarter (AVX-512 to 128) is 1.0. Not for batch-1, which memory bounds.
                        if (s[0] > 1) c.put("narrowOverNativePerLane", r(perLane(Series.ratio(narrowW, nativeW).median(), narrow.bits())));
                    }
                    cases.add(c);
                    System.out.printf(Locale.ROOT, "%-24s default %7s  tuned %7s  ejml %7s  openblas %7s  peak %6.0f%s  GFLOP/s   tuned/openblas %s [%s..%s]  tuned/default %s%n",
                            c.get("case"), c.get("defaultGflops"), c.get("tunedGflops"), c.get("ejmlGflops"), c.get("openblasGflops"), peak.gflops(threads),
                            s[0] == 1 ? "  roofline " + c.get("rooflineGflops") : "", c.get("tunedOverOpenblas"), c.get("tunedOverOpenblasMin"),
                            c.get("tunedOverOpenblasMax"), c.get("tunedOverDefault"));
                    if (isaCore != null) {
                        System.out.printf(Locale.ROOT, "%-24s openblas on %s %7s GFLOP/s   tuned/openblas(%s) %s [%s..%s]%n", "", isaCore,
                                c.get("openblasIsaGflops"), isaCore, c.get("tunedOverOpenblasIsa"), c.get("tunedOverOpenblasIsaMin"), c.get("tunedOverOpenblasIsaMax"));
                    }
                    if (narrow != null) {
                        System.out.printf(Locale.ROOT, "%-24s at %d bits %7s  at %d bits %7s  GFLOP/s (worker JVMs)   narrow/native %s [%s..%s]%s  [%s | %s]%n",
                                "", VectorWidth.bits(), c.get("nativeInWorkerGflops"), narrow.bits(), c.get("narrowInWorkerGflops"),
                                c.get("narrowOverNative"), c.get("narrowOverNativeMin"), c.get("narrowOverNativeMax"),
                                c.containsKey("narrowOverNativePerLane") ? ", per lane " + c.get("narrowOverNativePerLane") : "",
                                c.get("nativeInWorkerPoint"), c.get("narrowInWorkerPoint"));
                    }
                }
            }
        }
        boolean hasConv = KernelFamilies.all().stream().anyMatch(f -> f.spec().op().equals("conv2d"));
        ConvBench.Result conv = null;
        if (gemmOnly) {
            System.out.println("conv: skipped (--gemm-only)");
        } else if (hasConv) {
            conv = new ConvBench(System.out::println).run(quick, allConvLayers, quick ? 3 : convBudget, reps, seed, cores, blas, brief, full);
            cases.addAll(conv.cases());
        } else {
            System.out.println("conv: skipped, this build has no conv2d kernel family");
        }

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("bench", "kernels");
        json.put("vectorBits", VectorWidth.bits());
        json.put("timedRegion", Map.of(
                "java", "per sample: calls back to back on inputs built and checked before warm-up; samples by the harness's rule;"
                        + " the default and the tuned point in a fresh worker JVM each round, run unrecorded for at least 2 s and until a measurement is no"
                        + " more than 5% faster than the one before (the JIT's compilation; at most 10 s), then measured; EJML in the bench's JVM",
                "narrow", "per sample as java; the native and the narrow point, each found by the quick search in a worker JVM of its width and measured there",
                "openblas", "per sample: cblas_sgemm calls back to back on inputs built and checked before warm-up (C, same sampling rule),"
                        + " on the kernel set openblasCore names (and openblasIsaCore's beside it)",
                "roofline", "per sample: read passes over a float array as large as B, written before warm-up (C, OpenMP, same sampling rule)",
                "conv", "java: filters laid out, and packed into the micro-kernels' panels, once when the candidate is built (as an inference"
                        + " engine packs weights when a model loads); im2col copies, Winograd transforms and input packing inside every call;"
                        + " the default and the tuned point each in a worker JVM of its own for all the case's rounds, warmed up as above."
                        + " im2col + OpenBLAS: the KCRS filters are its matrix as given; the im2col copy and cblas_sgemm (which packs both"
                        + " operands) inside every call",
                "statistic", "median of the samples kept by Stats.withoutInterference, for every side; ratios: median over repetitions"));
        json.put("peak", peak.describe());
        json.put("openblas", blas.missing() == null ? "cblas_sgemm" : "omitted: " + blas.missing());
        json.put("openblasCore", blasCore);
        json.put("openblasIsaCore", isaCore);
        json.put("tunedFrom", table != null ? "table " + table : "quick search, budget " + searchBudget + " per case");
        json.put("convLayers", conv != null ? conv.layers() : gemmOnly ? "none: --gemm-only" : "none: no conv2d family");
        json.put("cases", cases);
        List<Map<String, Object>> gemmCases = cases.stream().filter(c -> c.containsKey("tunedOverOpenblas")).toList();
        List<Map<String, Object>> squareCases = gemmCases.stream().filter(c -> !String.valueOf(c.get("case")).startsWith("gemm 1x")).toList();
        json.put("gemmTunedOverOpenblasMin", min(squareCases, "tunedOverOpenblas"));
        json.put("gemmTunedOverOpenblasIsaMin", isaCore == null ? null : min(squareCases, "tunedOverOpenblasIsa"));
        // The tuned GEMM at the narrow width over the native one, both in worker JVMs in the same rounds.
        json.put("narrowBits", narrowToo ? narrowBits : null);
        json.put("gemmNarrowOverNativeMin", narrowToo ? min(squareCases, "narrowOverNative") : null);
        json.put("gemmNarrowPerLaneMin", narrowToo ? min(squareCases, "narrowOverNativePerLane") : null);
        json.put("roofline", gemmCases.stream().filter(c -> c.containsKey("tunedOverRoofline"))
                .map(c -> Map.of("case", c.get("case"), "rooflineGflops", String.valueOf(c.get("rooflineGflops")), "tunedOverRoofline", String.valueOf(c.get("tunedOverRoofline")))).toList());
        // Headline at 1 thread, where neither side's threading is measured; 2 threads beside it.
        json.put("convTunedOverIm2colOpenblasGeomean", conv == null ? null : conv.geomeanT1());
        json.put("convTunedOverIm2colOpenblasGeomeanT2", conv == null ? null : conv.geomeanT2());
        json.put("convByType", conv == null ? null : conv.byType());
        json.put("tunedOverEjmlMin", min(gemmCases, "tunedOverEjml"));
        JsonLine.print(json);
        return 0;
    }

    /**
     * OpenBLAS's AVX-512 kernel set where this JVM's kernels are 512 bits wide and OpenBLAS picked
     * another (Debian's 0.3.21 takes its AVX2 set on a Zen 5): the bar a library built
     * for this CPU sets, measured beside the library as installed. Null where there is none to add.
     */
    private static String isaCore(OpenBlas blas, String picked) {
        if (picked == null || VectorWidth.bits() < 512 || AVX512_CORES.contains(picked)) return null;
        return "SkylakeX".equals(blas.core("SkylakeX")) ? "SkylakeX" : null;
    }

    /** OpenBLAS's kernel sets that use AVX-512. */
    private static final Set<String> AVX512_CORES = Set.of("SkylakeX", "Cooperlake", "SapphireRapids");

    static Double gflops(double flops, CandidateOutcome o) {
        if (o.status() != Status.OK) {
            System.out.println("  failed: " + o.status() + " " + o.detail());
            return null;
        }
        return flops / o.stats().medianNs();
    }

    /** The ratio's median over the repetitions, with its lowest and highest beside it. */
    private static void spread(Map<String, Object> c, String name, Series ratio) {
        c.put(name, r(ratio.median()));
        c.put(name + "Min", r(ratio.min()));
        c.put(name + "Max", r(ratio.max()));
    }

    /** A narrow-over-native ratio scaled by the lanes the narrow width lacks; null stays null. */
    static Double perLane(Double narrowOverNative, int narrowBits) {
        return narrowOverNative == null ? null : narrowOverNative * VectorWidth.bits() / narrowBits;
    }

    static Double r(Double v) {
        return v == null ? null : Math.round(v * 100) / 100.0;
    }

    private static Double min(List<Map<String, Object>> cases, String field) {
        Double m = null;
        for (Map<String, Object> c : cases) {
            if (!(c.get(field) instanceof Double d)) return null; // a missing ratio makes the minimum unknown
            m = m == null ? d : Math.min(m, d);
        }
        return m;
    }
}
