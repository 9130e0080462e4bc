package org.tunefarm.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.GemmSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;
import org.tunefarm.space.SearchSpace;

/**
 * The quick search {@code bench kernels} runs when it is not given a table: the vector part of a
 * family's space (GEMM here, conv2d through {@link ConvPoint}) at a fixed thread count, a few
 * known-good starting points plus a seeded random sample, each measured briefly in a worker JVM;
 * the best few are measured again with the full settings, in {@link #FINALIST_ROUNDS} interleaved
 * rounds, and the one of the fastest median is the tuned point. A stand-in for a farm sweep, not
 * a replacement: it sees a few dozen of the space's points. The GEMM search can run in a worker
 * JVM of another vector width ({@link #inWorker}), over that width's space.
 */
final class TunedSearch {

    /** Measured again with the full settings: enough to undo a lucky quick measurement. */
    static final int FINALISTS = 3;

    /** Rounds of the finalists' full measurements. */
    static final int FINALIST_ROUNDS = 3;

    private final Worker worker;
    private final int bits;
    private final Consumer<String> log;
    private final Function<Map<String, Object>, String> name;

    private TunedSearch(Worker worker, int bits, Consumer<String> log, Function<Map<String, Object>, String> name) {
        this.worker = worker;
        this.bits = bits;
        this.log = log;
        this.name = name;
    }

    /** The GEMM search measured in {@code worker}, whose kernels run {@code bits} wide, over that width's space. */
    static TunedSearch inWorker(Worker worker, int bits, Consumer<String> log) {
        return new TunedSearch(worker, bits, line -> log.accept(line + " (" + bits + "-bit worker)"), GemmPoint::name);
    }

    /**
     * Any family's search measured in {@code worker}, at this JVM's width; {@code name} writes a
     * point short for the log. The bench gives each case a worker of its own, as an agent measures
     * a sweep's batches in a worker that serves one kernel and shape: the JVM the bench runs in
     * has compiled every other case's points (one 1x1 GEMM point read 26 GFLOP/s alone and 20-22
     * after three other tiles had run).
     */
    static TunedSearch inWorker(Worker worker, Consumer<String> log, Function<Map<String, Object>, String> name) {
        return new TunedSearch(worker, VectorWidth.bits(), log, name);
    }

    /** The vector points at {@code threads} threads that this machine's vector registers hold: where the fast kernels are. */
    static SearchSpace space(KernelKey key, int cores, int threads) {
        return space(key, cores, threads, VectorWidth.bits());
    }

    /** As above, for kernels {@code bits} wide. */
    static SearchSpace space(KernelKey key, int cores, int threads, int bits) {
        return new GemmSpec().space(key, cores, bits, DeviceProfile.registers(System.getProperty("os.arch"), bits)).narrow(Map.of("kernel", List.of("vector"), "threads", List.of(threads)), List.of());
    }

    /** The family's seeds ({@link GemmSpec#seeds}) at {@code threads} threads, kept where valid in the space (the register file's too). */
    static List<Map<String, Object>> startingPoints(SearchSpace space, KernelKey key, int threads) {
        return validIn(space, new GemmSpec().seeds(key, threads));
    }

    /** The points that are valid in {@code space}, as its own configurations. */
    static List<Map<String, Object>> validIn(SearchSpace space, List<Map<String, Object>> points) {
        List<Map<String, Object>> valid = new ArrayList<>();
        for (Map<String, Object> p : points) space.validIndex(p).ifPresent(i -> valid.add(space.config(i)));
        return valid;
    }

    /** The fastest point found within {@code budget} quick measurements; null when every point failed. */
    Map<String, Object> run(KernelKey key, int cores, int threads, int budget, long seed, MeasureSettings quick, MeasureSettings full) {
        SearchSpace space = space(key, cores, threads, bits);
        return run(key, space, startingPoints(space, key, threads), threads, budget, seed, quick, full);
    }

    /** As above over a given space, the {@code starts} measured first. */
    Map<String, Object> run(KernelKey key, SearchSpace space, List<Map<String, Object>> starts, int threads, int budget, long seed,
                            MeasureSettings quick, MeasureSettings full) {
        LinkedHashSet<Map<String, Object>> points = new LinkedHashSet<>(starts);
        SplittableRandom random = new SplittableRandom(seed);
        for (int misses = 0; points.size() < budget && misses < 1000; ) {
            var i = space.sample(random, 10_000);
            if (i.isEmpty()) break;
            if (!points.add(space.config(i.getAsLong()))) misses++;
        }
        Map<Map<String, Object>, Double> quickMedians = new LinkedHashMap<>();
        String firstFailure = null;
        List<Map<String, Object>> measured = points.stream().limit(budget).toList();
        // The first point pays for compiling the kernel's code within its brief warm-up: the first
        // M = 1 seed read a third of its speed measured first in a fresh JVM, full speed measured
        // again last (Zen 5). Measured once unrecorded, it competes on its compiled speed.
        if (!measured.isEmpty()) worker.measure(key, measured.get(0), quick);
        for (Map<String, Object> p : measured) {
            CandidateOutcome o = worker.measure(key, p, quick);
            if (o.status() == Status.OK) quickMedians.put(p, o.stats().medianNs());
            else if (firstFailure == null) firstFailure = name.apply(p) + ": " + o.status() + " " + o.detail();
        }
        if (firstFailure != null) log.accept("  search " + key.id() + " t" + threads + ": a point failed, " + firstFailure);
        List<Map<String, Object>> finalists = quickMedians.entrySet().stream().sorted(Map.Entry.comparingByValue())
                .limit(FINALISTS).map(Map.Entry::getKey).toList();
        // Finalists in interleaved rounds, order reversed every other round, each judged by its
        // median over the rounds: measured once each, one after the other, a spell of the host
        // decided between points within a few percent of each other (at 1024^3 the search kept
        // 8x2 with A read in place, which ran 0.85x as fast as A packed beside it on the Zen 5).
        Map<Map<String, Object>, List<Double>> rounds = new LinkedHashMap<>();
        for (int r = 0; r < FINALIST_ROUNDS; r++) {
            for (Map<String, Object> p : r % 2 == 0 ? finalists : finalists.reversed()) {
                CandidateOutcome o = worker.measure(key, p, full);
                rounds.computeIfAbsent(p, x -> new ArrayList<>()).add(o.status() == Status.OK ? o.stats().medianNs() : Double.POSITIVE_INFINITY);
            }
        }
        Map<String, Object> best = null;
        double bestNs = Double.MAX_VALUE;
        for (Map.Entry<Map<String, Object>, List<Double>> e : rounds.entrySet()) {
            double ns = median(e.getValue());
            if (ns < bestNs) {
                bestNs = ns;
                best = e.getKey();
            }
        }
        log.accept(String.format(java.util.Locale.ROOT, "  search %s t%d: %d points measured, best %s",
                key.id(), threads, quickMedians.size(), best == null ? "none" : name.apply(best)));
        return best;
    }

    /** The median of a round's worth of timings (the upper middle for an even count); a failed round counts as infinitely slow. */
    private static double median(List<Double> ns) {
        List<Double> sorted = ns.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
