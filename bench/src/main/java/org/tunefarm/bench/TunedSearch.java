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
import org.tunefarm.agent.harness.Harness;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.GemmSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;
import org.tunefarm.space.SearchSpace;

/**
 * The quick search {@code bench kernels} runs when it is not given a table: the vector part of a
 * family's space (GEMM here, conv2d through {@link ConvPoint}) at a fixed thread count, a few known-good starting points plus a seeded random
 * sample, each measured briefly in this JVM; the best few are measured again with the full
 * settings and the fastest of those is the tuned point. A stand-in for a farm sweep, not a
 * replacement: it sees a few dozen of the space's points. The GEMM search can run in a worker JVM
 * of another vector width ({@link #inWorker}), over that width's space.
 */
final class TunedSearch {

    /** Measured again with the full settings: enough to undo a lucky quick measurement. */
    static final int FINALISTS = 3;

    /** Where the search's candidates are measured: this JVM's harness, or a worker. */
    private interface Measure {
        CandidateOutcome of(KernelKey key, Map<String, Object> point, MeasureSettings settings);
    }

    private final Measure measure;
    private final int bits;
    private final Consumer<String> log;
    private final Function<Map<String, Object>, String> name;

    /** The GEMM search. */
    TunedSearch(KernelFamily family, Harness harness, Consumer<String> log) {
        this(family, harness, log, GemmPoint::name);
    }

    /** Any family's search; {@code name} writes a point short for the log. */
    TunedSearch(KernelFamily family, Harness harness, Consumer<String> log, Function<Map<String, Object>, String> name) {
        this((key, p, s) -> harness.measure(family, key, p, s), VectorWidth.bits(), log, name);
    }

    private TunedSearch(Measure measure, int bits, Consumer<String> log, Function<Map<String, Object>, String> name) {
        this.measure = measure;
        this.bits = bits;
        this.log = log;
        this.name = name;
    }

    /** The GEMM search measured in {@code worker}, whose kernels run {@code bits} wide, over that width's space. */
    static TunedSearch inWorker(Worker worker, int bits, Consumer<String> log) {
        return new TunedSearch(worker::measure, bits, line -> log.accept(line + " (" + bits + "-bit worker)"), GemmPoint::name);
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
        if (!measured.isEmpty()) measure.of(key, measured.get(0), quick);
        for (Map<String, Object> p : measured) {
            CandidateOutcome o = measure.of(key, p, quick);
            if (o.status() == Status.OK) quickMedians.put(p, o.stats().medianNs());
            else if (firstFailure == null) firstFailure = name.apply(p) + ": " + o.status() + " " + o.detail();
        }
        if (firstFailure != null) log.accept("  search " + key.id() + " t" + threads + ": a point failed, " + firstFailure);
        List<Map<String, Object>> finalists = quickMedians.entrySet().stream().sorted(Map.Entry.comparingByValue())
                .limit(FINALISTS).map(Map.Entry::getKey).toList();
        Map<String, Object> best = null;
        double bestNs = Double.MAX_VALUE;
        for (Map<String, Object> p : finalists) {
            CandidateOutcome o = measure.of(key, p, full);
            if (o.status() == Status.OK && o.stats().medianNs() < bestNs) {
                bestNs = o.stats().medianNs();
                best = p;
            }
        }
        log.accept(String.format(java.util.Locale.ROOT, "  search %s t%d: %d points measured, best %s",
                key.id(), threads, quickMedians.size(), best == null ? "none" : name.apply(best)));
        return best;
    }

}
