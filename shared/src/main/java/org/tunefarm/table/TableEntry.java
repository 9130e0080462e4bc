package org.tunefarm.table;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Objective;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Lease;

/**
 * The best known kernel for one device class and one kernel key, with its evidence.
 *
 * <p>An entry is two independent facts, each merged as a maximum under a total order, which is
 * what makes {@link #merge} commutative, associative and idempotent: the fastest OK measurement
 * (lowest median, ties broken by provenance), and the most recent measurement of the family's
 * default configuration (the baseline for {@code speedupOverDefault}). Finalists' re-measurements
 * (round 1 and up, interleaved, on one or more boards) outrank first measurements: they are the
 * better evidence, so the table keeps their figures. The third fact is the set of every
 * finalist re-measurement, merged as a union (the lower median where the same record appears
 * twice); {@code boardSpread} is derived from it: for the winner, (slowest - fastest) / fastest
 * median over the boards that re-measured it, null until two boards have.
 *
 * <p>{@code objective} says what "best" means, by the figure it ranks by ({@link Objective#figure},
 * lower is better): {@value #LATENCY} (the lowest median time per call; an entry read without an
 * objective, schema {@code tunefarm.table/1}, is one), {@code sustained} (time per call after a
 * finalist ran continuously for its sweep's {@code sustainedSeconds}), {@code energy} (joules per
 * call) and {@code edp} (joules times seconds per call). A record gives an entry for each objective
 * whose figure it has, and none for the others: a board without an energy sensor never makes an
 * energy entry, and a THROTTLED or failed record none at all. {@code defaultParams} are the
 * parameters of the family default (the sweep's baseline record), part of the baseline fact and
 * merged with it; null while no baseline was measured, and in entries read from {@code /1}.
 *
 * <p>A latency entry's fourth fact is {@code pareto}: the non-dominated (median time, energy per
 * call) points of every record of its class and kernel that read energy, merged as the frontier of
 * the union ({@link ParetoPoint#frontier}); empty for the other objectives and where no board read
 * energy. {@code sustainedNs} and {@code energyJ} are the winning record's figures, null where it
 * lacks them (never 0); {@code gflops} of a sustained entry is its sustained throughput.
 *
 * <p>Above all four facts stands {@code implementation}, the version of the family's code that
 * measured the entry ({@link Measurement#implementation}; 0 before versions were recorded): entries
 * of different implementations never merge, the newer supersedes the older whole (its winner,
 * baseline, finalists and frontier), so the table never ranks old code against new. Merge stays a
 * maximum under a total order: first by implementation, then as above.
 */
public record TableEntry(
        String deviceClass,
        String objective,
        KernelKey kernel,
        Map<String, Object> params,
        Map<String, Object> defaultParams,
        EntryStats stats,
        Double gflops,
        Double speedupOverDefault,
        Double temperatureC,
        String agentId,
        long measuredAt,
        String sweepId,
        long index,
        Double defaultMedianNs,
        long defaultMeasuredAt,
        int round,
        Map<String, Double> finalMedians,
        Double boardSpread,
        Double sustainedNs,
        Double energyJ,
        List<ParetoPoint> pareto,
        // Absent in tables written before versions were recorded: 0.
        @JsonSetter(nulls = Nulls.AS_EMPTY) int implementation) {

    /** The objective of every entry measured today: the lowest median time per call. */
    public static final String LATENCY = "latency";

    public TableEntry {
        if (objective == null) objective = LATENCY;
        finalMedians = finalMedians == null ? Map.of() : Map.copyOf(finalMedians);
        pareto = pareto == null ? List.of() : ParetoPoint.frontier(pareto);
    }

    /** An entry without sustained or energy figures (as read from tables written before they existed). */
    public TableEntry(String deviceClass, String objective, KernelKey kernel, Map<String, Object> params, Map<String, Object> defaultParams,
                      EntryStats stats, Double gflops, Double speedupOverDefault, Double temperatureC, String agentId, long measuredAt,
                      String sweepId, long index, Double defaultMedianNs, long defaultMeasuredAt, int round, Map<String, Double> finalMedians,
                      Double boardSpread) {
        this(deviceClass, objective, kernel, params, defaultParams, stats, gflops, speedupOverDefault, temperatureC, agentId, measuredAt,
                sweepId, index, defaultMedianNs, defaultMeasuredAt, round, finalMedians, boardSpread, null, null, List.of(), 0);
    }

    /** Timing of the winning measurement, in nanoseconds per call. */
    public record EntryStats(double medianNs, double minNs, double cv, int samples) {}

    /**
     * The figure this entry's objective ranks by, lower is better: the median, the sustained time,
     * joules per call, or joules times seconds per call.
     */
    @JsonIgnore
    public double figure() {
        return switch (objective) {
            case "sustained" -> sustainedNs == null ? Double.POSITIVE_INFINITY : sustainedNs;
            case "energy" -> energyJ == null ? Double.POSITIVE_INFINITY : energyJ;
            case "edp" -> energyJ == null ? Double.POSITIVE_INFINITY : energyJ * stats.medianNs() * 1e-9;
            default -> stats.medianNs();
        };
    }

    /** Time per call that the entry's throughput (GFLOP/s) stands for: sustained for a sustained entry, else the median. */
    private double perCallNs() {
        return "sustained".equals(objective) && sustainedNs != null ? sustainedNs : stats.medianNs();
    }

    private static final Comparator<TableEntry> FASTEST = Comparator
            .comparingInt((TableEntry e) -> e.round() > 0 ? 0 : 1)
            .thenComparingDouble(TableEntry::figure)
            .thenComparingDouble((TableEntry e) -> e.stats().medianNs())
            .thenComparingLong(TableEntry::measuredAt)
            .thenComparing(TableEntry::sweepId)
            .thenComparingLong(TableEntry::index)
            .thenComparing(TableEntry::agentId)
            // Equal provenance with different evidence (a re-sent, re-measured candidate): still
            // pick one the same way from either side, or merge would depend on argument order.
            .thenComparingDouble((TableEntry e) -> e.stats().minNs())
            .thenComparingDouble((TableEntry e) -> e.stats().cv())
            .thenComparingInt((TableEntry e) -> e.stats().samples())
            .thenComparing(TableEntry::temperatureC, Comparator.nullsFirst(Comparator.<Double>naturalOrder()))
            .thenComparing(TableEntry::gflops, Comparator.nullsFirst(Comparator.<Double>naturalOrder()))
            .thenComparing(TableEntry::sustainedNs, Comparator.nullsFirst(Comparator.<Double>naturalOrder()))
            .thenComparing(TableEntry::energyJ, Comparator.nullsFirst(Comparator.<Double>naturalOrder()))
            .thenComparingInt(TableEntry::round)
            .thenComparing((TableEntry e) -> new java.util.TreeMap<>(e.params()).toString());

    /**
     * The latency entry a single OK measurement stands for, or null when it cannot win (not OK).
     *
     * @param flops work of one call, for GFLOP/s; 0 leaves gflops null
     */
    public static TableEntry of(Measurement m, double flops) {
        return of(m, flops, Objective.LATENCY);
    }

    /**
     * The entries a single measurement stands for: one per objective whose figure it has (latency
     * for every OK record; sustained where it ran sustained; energy and EDP where energy was read);
     * none when it cannot win (not OK: failed, THROTTLED).
     */
    public static List<TableEntry> entries(Measurement m, double flops) {
        List<TableEntry> out = new ArrayList<>();
        for (Objective o : Objective.values()) {
            TableEntry e = of(m, flops, o);
            if (e != null) out.add(e);
        }
        return out;
    }

    /** The entry a measurement stands for in one objective's slot, or null when it has no figure there or cannot win. */
    public static TableEntry of(Measurement m, double flops, Objective objective) {
        if (m.status() != Status.OK || m.stats() == null) return null;
        Double figure = objective.figure(m);
        if (figure == null || !Double.isFinite(figure) || figure < 0) return null;
        double median = m.stats().medianNs();
        boolean baseline = m.index() == Lease.Candidate.BASELINE;
        Map<String, Double> finals = m.round() > 0 ? Map.of(finalKey(m.sweepId(), m.index(), m.agentId(), m.round()), median) : Map.of();
        List<ParetoPoint> pareto = objective == Objective.LATENCY && hasEnergy(m)
                ? List.of(new ParetoPoint(m.params(), median, m.energyJ(), m.sweepId(), m.index(), m.agentId())) : List.of();
        return build(m.deviceClass(), objective.text(), m.key(), m.params(),
                new EntryStats(median, m.stats().minNs(), m.stats().cv(), m.stats().samples()),
                flops, m.after() != null ? m.after().temperatureC() : null, m.agentId(), m.finishedAt(), m.sweepId(), m.index(),
                baseline ? m.params() : null, baseline ? median : null, baseline ? m.finishedAt() : 0, m.round(), finals,
                m.sustainedNs(), m.energyJ(), pareto, m.implementation());
    }

    private static boolean hasEnergy(Measurement m) {
        return m.energyJ() != null && Double.isFinite(m.energyJ()) && m.energyJ() >= 0;
    }

    /** Names one finalist re-measurement: sweep, candidate, board and round. */
    static String finalKey(String sweepId, long index, String agentId, int round) {
        return sweepId + "/" + index + "/" + agentId + "/r" + round;
    }

    private static TableEntry build(String deviceClass, String objective, KernelKey kernel, Map<String, Object> params, EntryStats stats,
                                    double flops, Double temperatureC, String agentId, long measuredAt, String sweepId, long index,
                                    Map<String, Object> defaultParams, Double defaultMedianNs, long defaultMeasuredAt, int round,
                                    Map<String, Double> finals, Double sustainedNs, Double energyJ, List<ParetoPoint> pareto,
                                    int implementation) {
        double perCallNs = "sustained".equals(objective) && sustainedNs != null ? sustainedNs : stats.medianNs();
        Double gflops = flops > 0 ? flops / perCallNs : null;
        Double speedup = defaultMedianNs != null ? defaultMedianNs / stats.medianNs() : null;
        return new TableEntry(deviceClass, objective, kernel, Map.copyOf(params), defaultParams == null ? null : Map.copyOf(defaultParams),
                stats, gflops, speedup, temperatureC, agentId, measuredAt,
                sweepId, index, defaultMedianNs, defaultMeasuredAt, round, finals, boardSpread(finals, sweepId, index), sustainedNs, energyJ, pareto,
                implementation);
    }

    /** (slowest - fastest) / fastest over the boards that re-measured this candidate; null below two boards. */
    private static Double boardSpread(Map<String, Double> finals, String sweepId, long index) {
        String prefix = sweepId + "/" + index + "/";
        java.util.Map<String, Double> byBoard = new java.util.TreeMap<>();
        finals.forEach((k, v) -> {
            if (!k.startsWith(prefix)) return;
            String board = k.substring(prefix.length(), k.lastIndexOf("/r"));
            byBoard.merge(board, v, Math::min);
        });
        if (byBoard.size() < 2) return null;
        double lo = byBoard.values().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double hi = byBoard.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return (hi - lo) / lo;
    }

    /**
     * Table key: one entry per device class, kernel key and objective. A latency entry's slot is
     * {@code class|kernel id}, as before objectives existed, so tables and cluster maps written
     * then still merge with today's; another objective's entry has a slot of its own.
     */
    @JsonIgnore
    public String slot() {
        return slot(deviceClass, kernel, objective);
    }

    static String slot(String deviceClass, KernelKey kernel, String objective) {
        return deviceClass + "|" + kernel.id() + (LATENCY.equals(objective) ? "" : "|" + objective);
    }

    /** Combines two entries for the same slot. */
    public static TableEntry merge(TableEntry a, TableEntry b) {
        // The slot's parts, not its text: a start merges millions of records, and the text is built from the kernel's id.
        if (!java.util.Objects.equals(a.deviceClass, b.deviceClass) || !java.util.Objects.equals(a.kernel, b.kernel) || !java.util.Objects.equals(a.objective, b.objective)) {
            throw new IllegalArgumentException("entries for different slots: " + a.slot() + " and " + b.slot());
        }
        if (a.implementation != b.implementation) return a.implementation > b.implementation ? a : b;
        TableEntry best = FASTEST.compare(a, b) <= 0 ? a : b;
        TableEntry other = best == a ? b : a;
        if (bringsNothing(other, best)) return best;
        TableEntry base = laterBaseline(a, b);
        double flops = best.gflops() != null ? best.gflops() * best.perCallNs() : 0;
        Map<String, Double> finals = new java.util.HashMap<>(a.finalMedians);
        b.finalMedians.forEach((k, v) -> finals.merge(k, v, Math::min));
        List<ParetoPoint> pareto = new ArrayList<>(a.pareto);
        pareto.addAll(b.pareto);
        return build(best.deviceClass, best.objective, best.kernel, best.params, best.stats, flops, best.temperatureC, best.agentId,
                best.measuredAt, best.sweepId, best.index, base.defaultParams, base.defaultMedianNs, base.defaultMeasuredAt, best.round, finals,
                best.sustainedNs, best.energyJ, pareto, best.implementation);
    }

    /**
     * Whether {@code loser}, the slower, adds nothing to {@code kept}: it brings no baseline,
     * finalists' medians or Pareto points. Most records of a sweep are such (the merge of a
     * history's millions of records is mostly these), and the merge is then {@code kept} itself,
     * not a copy built again (whose GFLOP/s, recomputed from the work, could differ in the last bit).
     */
    private static boolean bringsNothing(TableEntry loser, TableEntry kept) {
        return loser.defaultMedianNs == null && loser.defaultParams == null && loser.defaultMeasuredAt == 0
                && (kept.defaultMedianNs != null || (kept.defaultParams == null && kept.defaultMeasuredAt == 0))
                && loser.finalMedians.isEmpty() && loser.pareto.isEmpty();
    }

    /**
     * The baseline fact of two entries: the later measurement, then the faster, then one with its
     * parameters known (an entry read from {@code /1} has none), then the smaller parameters as
     * text: a total order, so merge picks the same side whichever way round it is asked.
     */
    private static TableEntry laterBaseline(TableEntry a, TableEntry b) {
        if (a.defaultMedianNs == null) return b;
        if (b.defaultMedianNs == null) return a;
        if (a.defaultMeasuredAt != b.defaultMeasuredAt) return a.defaultMeasuredAt > b.defaultMeasuredAt ? a : b;
        if (!a.defaultMedianNs.equals(b.defaultMedianNs)) return a.defaultMedianNs < b.defaultMedianNs ? a : b;
        if ((a.defaultParams == null) != (b.defaultParams == null)) return a.defaultParams != null ? a : b;
        if (a.defaultParams == null) return a;
        return new java.util.TreeMap<>(a.defaultParams).toString().compareTo(new java.util.TreeMap<>(b.defaultParams).toString()) <= 0 ? a : b;
    }
}
