package org.tunefarm.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpecs;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Objective;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Lease;

/**
 * Merge laws of the best-kernel table over random evidence: a few device classes and kernel
 * keys, baseline measurements (index -1), failed and throttled runs, sustained times and energy
 * readings present or absent, and deliberately few distinct medians, figures, timestamps and agents
 * so that ties are common.
 */
class BestKernelTablePropertiesTest {

    static final List<String> CLASSES = List.of("zen4-8c-jdk25", "a76-4c-jdk21");
    static final List<KernelKey> KEYS = List.of(
            new KernelKey("gemm", Map.of("M", 64, "N", 64, "K", 64), "fp32"),
            new KernelKey("gemm", Map.of("M", 128, "N", 32, "K", 7), "fp32"),
            new KernelKey("sleep", Map.of("unitUs", 100), "fp32"));

    @Provide
    Arbitrary<Measurement> measurements() {
        return Builders.withBuilder(MeasurementBuilder::new)
                .use(Arbitraries.of(CLASSES)).in((b, v) -> { b.deviceClass = v; return b; })
                .use(Arbitraries.of(KEYS)).in((b, v) -> { b.key = v; return b; })
                .use(Arbitraries.of("s1", "s2")).in((b, v) -> { b.sweepId = v; return b; })
                .use(Arbitraries.longs().between(-1, 4)).in((b, v) -> { b.index = v; return b; })
                .use(Arbitraries.of(Status.OK, Status.OK, Status.OK, Status.WRONG_ANSWER, Status.TIMEOUT, Status.CRASH, Status.THROTTLED)).in((b, v) -> { b.status = v; return b; })
                .use(Arbitraries.of(120.0, 200.0, 1e6 / 7).injectNull(0.5)).in((b, v) -> { b.sustainedNs = v; return b; })
                .use(Arbitraries.of(1e-6, 2e-6, 5e-7, 0.0).injectNull(0.4)).in((b, v) -> { b.energyJ = v; return b; })
                .use(Arbitraries.of(100.0, 150.0, 333.3, 1e6 / 7, 0.1 + 0.2, 9_876.54321)).in((b, v) -> { b.median = v; return b; })
                .use(Arbitraries.doubles().between(0.5, 1.0)).in((b, v) -> { b.minFraction = v; return b; })
                .use(Arbitraries.doubles().between(0, 0.3)).in((b, v) -> { b.cv = v; return b; })
                .use(Arbitraries.integers().between(1, 9)).in((b, v) -> { b.samples = v; return b; })
                .use(Arbitraries.of(1_000L, 2_000L, 3_000L)).in((b, v) -> { b.finishedAt = v; return b; })
                .use(Arbitraries.of("a1", "a2")).in((b, v) -> { b.agentId = v; return b; })
                .use(Arbitraries.doubles().between(30, 90).injectNull(0.3)).in((b, v) -> { b.temperature = v; return b; })
                .use(Arbitraries.of(0, 0, 0, 1, 2)).in((b, v) -> { b.round = v; return b; })
                // Two spellings of one candidate's parameters, so baselines equal in time and date differ in params.
                .use(Arbitraries.of("x", "y")).in((b, v) -> { b.variant = v; return b; })
                .build(MeasurementBuilder::build);
    }

    /**
     * Evidence that all competes for one slot, most of it baselines: ties of date and time between
     * baselines that differ only in their parameters are then common, not one try in many.
     */
    @Provide
    Arbitrary<BestKernelTable> oneSlotTables() {
        Arbitrary<Measurement> oneSlot = Builders.withBuilder(MeasurementBuilder::new)
                .use(Arbitraries.of(Lease.Candidate.BASELINE, Lease.Candidate.BASELINE, 1L)).in((b, v) -> { b.index = v; return b; })
                .use(Arbitraries.of(100.0, 150.0)).in((b, v) -> { b.median = v; return b; })
                .use(Arbitraries.of(1_000L, 2_000L)).in((b, v) -> { b.finishedAt = v; return b; })
                .use(Arbitraries.of("x", "y")).in((b, v) -> { b.variant = v; return b; })
                .use(Arbitraries.of("a1", "a2")).in((b, v) -> { b.agentId = v; return b; })
                .use(Arbitraries.of(1.0, 2.0).injectNull(0.3)).in((b, v) -> { b.energyJ = v; return b; })
                .use(Arbitraries.of(5.0, 7.0).injectNull(0.5)).in((b, v) -> { b.sustainedNs = v; return b; })
                .build(b -> {
                    b.deviceClass = CLASSES.get(0);
                    b.key = KEYS.get(0);
                    b.sweepId = "s1";
                    b.status = Status.OK;
                    b.minFraction = 0.9;
                    b.samples = 5;
                    return b.build();
                });
        return oneSlot.list().ofMaxSize(6).map(BestKernelTablePropertiesTest::table);
    }

    @Property(tries = 300)
    void mergeLawsHoldWhenEveryEntryCompetesForOneSlot(@ForAll("oneSlotTables") BestKernelTable a, @ForAll("oneSlotTables") BestKernelTable b,
                                                       @ForAll("oneSlotTables") BestKernelTable c) {
        assertEquals(BestKernelTable.merge(a, b), BestKernelTable.merge(b, a));
        assertEquals(BestKernelTable.merge(BestKernelTable.merge(a, b), c), BestKernelTable.merge(a, BestKernelTable.merge(b, c)));
        assertEquals(a, BestKernelTable.merge(a, a));
    }

    /** Evidence measured by three versions of the families' code: 0 (before versions were recorded), 1 and 2. */
    @Provide
    Arbitrary<List<Measurement>> mixedEvidence() {
        return Combinators.combine(measurements(), Arbitraries.of(0, 1, 1, 2))
                .as(Measurement::ofImplementation).list().ofMaxSize(25);
    }

    @Provide
    Arbitrary<List<Measurement>> evidence() {
        return measurements().list().ofMaxSize(25);
    }

    @Provide
    Arbitrary<BestKernelTable> tables() {
        return evidence().map(BestKernelTablePropertiesTest::table);
    }

    static final class MeasurementBuilder {
        String deviceClass, sweepId, agentId, variant;
        KernelKey key;
        long index, finishedAt;
        Status status;
        double median, minFraction, cv;
        int samples, round;
        Double temperature, sustainedNs, energyJ;
        int implementation = 1;

        Measurement build() {
            Stats stats = status == Status.OK || status == Status.THROTTLED
                    ? new Stats(median * minFraction, median, median * 1.01, median * cv, cv, samples, 3) : null;
            return new Measurement(sweepId, key, index, Map.of("i", (int) index, "v", variant), status, stats, null, SensorReading.NONE,
                    new SensorReading(temperature, null, null), "", agentId, deviceClass, finishedAt - 10, finishedAt, 0, round,
                    null, stats == null ? null : sustainedNs, stats == null ? null : energyJ).ofImplementation(implementation);
        }
    }

    /** The latency entry of a measurement, or null. */
    static TableEntry entry(Measurement m) {
        return TableEntry.of(m, flops(m));
    }

    static double flops(Measurement m) {
        return KernelSpecs.get(m.key().op()).flops(m.key());
    }

    static BestKernelTable table(List<Measurement> ms) {
        List<TableEntry> es = new ArrayList<>();
        for (Measurement m : ms) es.addAll(TableEntry.entries(m, flops(m)));
        return BestKernelTable.of(es);
    }

    static List<TableEntry> latencyEntries(BestKernelTable t) {
        return t.entries(e -> e.objective().equals(TableEntry.LATENCY));
    }

    @Property(tries = 300)
    void mergeIsCommutative(@ForAll("tables") BestKernelTable a, @ForAll("tables") BestKernelTable b) {
        assertEquals(BestKernelTable.merge(a, b), BestKernelTable.merge(b, a));
    }

    @Property(tries = 300)
    void mergeIsAssociative(@ForAll("tables") BestKernelTable a, @ForAll("tables") BestKernelTable b, @ForAll("tables") BestKernelTable c) {
        assertEquals(BestKernelTable.merge(BestKernelTable.merge(a, b), c), BestKernelTable.merge(a, BestKernelTable.merge(b, c)));
    }

    @Property(tries = 300)
    void mergeIsIdempotent(@ForAll("tables") BestKernelTable a, @ForAll("tables") BestKernelTable b) {
        assertEquals(a, BestKernelTable.merge(a, a));
        BestKernelTable ab = BestKernelTable.merge(a, b);
        assertEquals(ab, BestKernelTable.merge(ab, a));
        assertEquals(ab, BestKernelTable.merge(ab, b));
    }

    @Property(tries = 300)
    void emptyTableIsTheIdentity(@ForAll("tables") BestKernelTable a) {
        assertEquals(a, BestKernelTable.merge(a, BestKernelTable.EMPTY));
        assertEquals(a, BestKernelTable.merge(BestKernelTable.EMPTY, a));
    }

    @Property(tries = 300)
    void withAgreesWithMergeOfASingleEntry(@ForAll("tables") BestKernelTable t, @ForAll("measurements") Measurement m) {
        List<TableEntry> es = TableEntry.entries(m, flops(m));
        BestKernelTable with = t;
        for (TableEntry e : es) with = with.with(e);
        assertEquals(BestKernelTable.merge(t, BestKernelTable.of(es)), with);
    }

    @Property(tries = 300)
    void evidenceInAnyOrderAndSplitGivesOneTable(@ForAll("evidence") List<Measurement> ms, @ForAll long seed) {
        List<Measurement> shuffled = new ArrayList<>(ms);
        java.util.Collections.shuffle(shuffled, new java.util.Random(seed));
        int cut = shuffled.isEmpty() ? 0 : (int) Math.floorMod(seed, shuffled.size());
        BestKernelTable split = BestKernelTable.merge(table(shuffled.subList(0, cut)), table(shuffled.subList(cut, shuffled.size())));
        assertEquals(table(ms), split);
    }

    @Property(tries = 300)
    void lookupReturnsTheFastestOkMeasurementPreferringFinalistRounds(@ForAll("evidence") List<Measurement> ms) {
        BestKernelTable t = table(ms);
        for (String c : CLASSES) {
            for (KernelKey k : KEYS) {
                List<Measurement> ok = ms.stream().filter(m -> m.deviceClass().equals(c) && m.key().equals(k) && m.status() == Status.OK).toList();
                // Re-measured finalists are the better evidence: when there are any, the winner is among them.
                List<Measurement> finals = ok.stream().filter(m -> m.round() > 0).toList();
                Optional<Double> fastest = (finals.isEmpty() ? ok : finals).stream()
                        .map(m -> m.stats().medianNs()).min(Comparator.naturalOrder());
                Optional<TableEntry> found = t.lookup(c, k);
                assertEquals(fastest.isPresent(), found.isPresent(), c + " " + k.id());
                if (found.isEmpty()) continue;
                TableEntry e = found.get();
                assertEquals(fastest.get(), e.stats().medianNs());
                assertEquals(c, e.deviceClass());
                assertEquals(k, e.kernel());
                // The winner is one of the measurements, with its own params and provenance.
                assertTrue(ms.stream().anyMatch(m -> m.status() == Status.OK && m.deviceClass().equals(c) && m.key().equals(k)
                        && m.index() == e.index() && m.params().equals(e.params()) && m.agentId().equals(e.agentId()) && m.round() == e.round()
                        && m.finishedAt() == e.measuredAt() && m.stats().medianNs() == e.stats().medianNs()));
            }
        }
    }

    @Property(tries = 300)
    void nonOkMeasurementsNeverEnter(@ForAll("evidence") List<Measurement> ms) {
        List<Measurement> ok = ms.stream().filter(m -> m.status() == Status.OK).toList();
        assertEquals(table(ok), table(ms));
        for (Measurement m : ms) if (m.status() != Status.OK) assertEquals(List.of(), TableEntry.entries(m, flops(m)), m.status().name());
    }

    @Property(tries = 300)
    void speedupIsTheLatestBaselineMedianOverTheBestMedian(@ForAll("evidence") List<Measurement> ms) {
        BestKernelTable t = table(ms);
        for (TableEntry e : latencyEntries(t)) {
            List<Measurement> baselines = ms.stream()
                    .filter(m -> m.status() == Status.OK && m.index() == Lease.Candidate.BASELINE
                            && m.deviceClass().equals(e.deviceClass()) && m.key().equals(e.kernel()))
                    .toList();
            if (baselines.isEmpty()) {
                assertNull(e.speedupOverDefault());
                assertNull(e.defaultMedianNs());
                continue;
            }
            // the most recent baseline counts; among equally recent ones, the faster
            Measurement latest = baselines.stream().max(Comparator.comparingLong(Measurement::finishedAt)
                    .thenComparing(m -> -m.stats().medianNs())).orElseThrow();
            assertEquals(latest.stats().medianNs(), e.defaultMedianNs());
            assertEquals(latest.stats().medianNs() / e.stats().medianNs(), e.speedupOverDefault());
        }
    }

    @Property(tries = 300)
    void defaultParamsAreThoseOfTheBaselineTheSpeedupComesFrom(@ForAll("evidence") List<Measurement> ms) {
        for (TableEntry e : latencyEntries(table(ms))) {
            List<Measurement> same = ms.stream()
                    .filter(m -> m.status() == Status.OK && m.index() == Lease.Candidate.BASELINE
                            && m.deviceClass().equals(e.deviceClass()) && m.key().equals(e.kernel())
                            && m.finishedAt() == e.defaultMeasuredAt() && Objects.equals(m.stats().medianNs(), e.defaultMedianNs()))
                    .toList();
            if (e.defaultMedianNs() == null) {
                assertNull(e.defaultParams());
                continue;
            }
            // among baselines equally recent and fast, the one whose params read first as text
            Map<String, Object> expected = same.stream().map(m -> new java.util.TreeMap<>(m.params()))
                    .min(Comparator.comparing(Object::toString)).orElseThrow();
            assertEquals(expected, e.defaultParams());
        }
    }

    @Property(tries = 200)
    void anEntryReadBackFromJsonIsTheSameEntry(@ForAll("measurements") Measurement m) throws Exception {
        for (TableEntry e : TableEntry.entries(m, flops(m))) {
            String json = org.tunefarm.protocol.Protocol.write(e);
            assertEquals(e, org.tunefarm.protocol.Protocol.JSON.readValue(json, TableEntry.class));
        }
    }

    /** An entry of schema /1 (no objective, no defaultParams) reads as a latency entry and merges with today's. */
    @Property(tries = 200)
    void anEntryOfSchemaOneReadsAsALatencyEntry(@ForAll("measurements") Measurement m, @ForAll("tables") BestKernelTable t) throws Exception {
        TableEntry e = entry(m);
        if (e == null) return;
        com.fasterxml.jackson.databind.node.ObjectNode old = org.tunefarm.protocol.Protocol.JSON.valueToTree(e);
        old.remove("objective");
        old.remove("defaultParams");
        old.remove("implementation");
        TableEntry read = org.tunefarm.protocol.Protocol.JSON.treeToValue(old, TableEntry.class);
        assertEquals(TableEntry.LATENCY, read.objective());
        assertNull(read.defaultParams());
        assertEquals(e.slot(), read.slot());
        // Merging the old copy in never loses the new one's default parameters, in either order.
        assertEquals(BestKernelTable.merge(t, BestKernelTable.of(List.of(e, read))), BestKernelTable.merge(BestKernelTable.of(List.of(read)), t.with(e)));
        assertEquals(e.defaultParams(), BestKernelTable.of(List.of(read, e)).lookup(e.deviceClass(), e.kernel()).orElseThrow().defaultParams());
    }

    @Property(tries = 200)
    void gflopsIsTheWinnersWorkOverItsMedianOrForASustainedEntryItsSustainedTime(@ForAll("evidence") List<Measurement> ms) {
        for (TableEntry e : table(ms).entries()) {
            double flops = KernelSpecs.get(e.kernel().op()).flops(e.kernel());
            double perCall = e.objective().equals("sustained") ? e.sustainedNs() : e.stats().medianNs();
            if (flops == 0) assertNull(e.gflops());
            else assertEquals(flops / perCall, Objects.requireNonNull(e.gflops()), Math.ulp(flops / perCall) * 4);
        }
    }

    @Property(tries = 300)
    void boardSpreadIsTheWinnersSpreadOverTheBoardsThatReMeasuredIt(@ForAll("evidence") List<Measurement> ms) {
        for (TableEntry e : latencyEntries(table(ms))) {
            Map<String, Double> byBoard = new java.util.TreeMap<>();
            ms.stream().filter(m -> m.status() == Status.OK && m.round() > 0 && m.deviceClass().equals(e.deviceClass())
                            && m.key().equals(e.kernel()) && m.sweepId().equals(e.sweepId()) && m.index() == e.index())
                    .forEach(m -> byBoard.merge(m.agentId(), m.stats().medianNs(), Math::min));
            if (byBoard.size() < 2) {
                assertNull(e.boardSpread(), e.toString());
                continue;
            }
            double lo = byBoard.values().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            double hi = byBoard.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            assertEquals((hi - lo) / lo, Objects.requireNonNull(e.boardSpread()), 1e-12);
        }
    }

    @Property(tries = 200)
    void eachRoundOfACandidateIsItsOwnRecord(@ForAll("measurements") Measurement m) {
        assertEquals(m.recordId(), m.inRound(m.round()).recordId());
        if (m.round() == 0) assertTrue(!m.recordId().equals(m.inRound(1).recordId()));
        assertEquals(m.round() == 0, !m.recordId().contains("#r"), "round 0 keeps the id it had before rounds existed");
    }

    /**
     * Each objective's winner is the record with the lowest figure among those that have it
     * (finalists' rounds first), and no objective has an entry without a record that has its figure.
     */
    @Property(tries = 300)
    void eachObjectivesWinnerHasTheLowestFigure(@ForAll("evidence") List<Measurement> ms) {
        BestKernelTable t = table(ms);
        for (Objective o : Objective.values()) {
            for (String c : CLASSES) {
                for (KernelKey k : KEYS) {
                    List<Measurement> with = ms.stream().filter(m -> m.deviceClass().equals(c) && m.key().equals(k) && o.figure(m) != null).toList();
                    List<Measurement> finals = with.stream().filter(m -> m.round() > 0).toList();
                    Optional<Double> best = (finals.isEmpty() ? with : finals).stream().map(o::figure).min(Comparator.naturalOrder());
                    Optional<TableEntry> found = t.lookup(c, k, o);
                    assertEquals(best.isPresent(), found.isPresent(), o + " " + c + " " + k.id());
                    if (found.isEmpty()) continue;
                    assertEquals(o.text(), found.get().objective());
                    assertEquals(best.get(), found.get().figure(), Math.ulp(best.get()) * 4);
                    assertTrue(with.stream().anyMatch(m -> m.index() == found.get().index() && m.agentId().equals(found.get().agentId())
                            && m.round() == found.get().round() && m.status() == Status.OK), "the winner is one of the records with the figure");
                }
            }
        }
    }

    /** A latency entry's Pareto set is exactly the non-dominated (time, energy) points of its class and kernel's OK records that read energy. */
    @Property(tries = 300)
    void theLatencyEntryKeepsTheParetoSetOfTimeAndEnergy(@ForAll("evidence") List<Measurement> ms) {
        BestKernelTable t = table(ms);
        for (String c : CLASSES) {
            for (KernelKey k : KEYS) {
                List<ParetoPoint> points = ms.stream().filter(m -> m.deviceClass().equals(c) && m.key().equals(k) && m.status() == Status.OK && m.energyJ() != null)
                        .map(m -> new ParetoPoint(m.params(), m.stats().medianNs(), m.energyJ(), m.sweepId(), m.index(), m.agentId())).distinct().toList();
                List<ParetoPoint> expected = points.stream()
                        .filter(p -> points.stream().noneMatch(q -> q.medianNs() <= p.medianNs() && q.energyJ() <= p.energyJ()
                                && (q.medianNs() < p.medianNs() || q.energyJ() < p.energyJ())))
                        .sorted(ParetoPoint.ORDER).toList();
                List<ParetoPoint> pareto = t.lookup(c, k).map(TableEntry::pareto).orElse(List.of());
                assertEquals(expected, pareto, c + " " + k.id());
                t.lookup(c, k, Objective.ENERGY).ifPresent(e -> assertEquals(List.of(), e.pareto(), "only the latency entry keeps the Pareto set"));
            }
        }
    }

    @Property(tries = 200)
    void aThrottledRecordNeverWinsAnyObjective(@ForAll("evidence") List<Measurement> ms) {
        for (TableEntry e : table(ms).entries()) {
            assertTrue(ms.stream().anyMatch(m -> m.status() == Status.OK && m.index() == e.index() && m.agentId().equals(e.agentId())
                    && m.round() == e.round() && m.sweepId().equals(e.sweepId())), e.toString());
        }
        List<Measurement> throttled = ms.stream().filter(m -> m.status() == Status.THROTTLED).toList();
        assertEquals(0, table(throttled).size());
    }

    @Property(tries = 300)
    void mergeLawsHoldAcrossImplementations(@ForAll("mixedEvidence") List<Measurement> a, @ForAll("mixedEvidence") List<Measurement> b,
                                            @ForAll("mixedEvidence") List<Measurement> c) {
        BestKernelTable ta = table(a), tb = table(b), tc = table(c);
        assertEquals(BestKernelTable.merge(ta, tb), BestKernelTable.merge(tb, ta));
        assertEquals(BestKernelTable.merge(BestKernelTable.merge(ta, tb), tc), BestKernelTable.merge(ta, BestKernelTable.merge(tb, tc)));
        assertEquals(ta, BestKernelTable.merge(ta, ta));
    }

    /**
     * Each objective's entry is exactly what the records of the newest implementation that has its
     * figure alone would give: no figure, baseline, finalist or Pareto point of older code stays in it.
     */
    @Property(tries = 300)
    void theNewestImplementationSupersedesTheOlderWhole(@ForAll("mixedEvidence") List<Measurement> ms) {
        BestKernelTable t = table(ms);
        for (Objective o : Objective.values()) {
            for (String c : CLASSES) {
                for (KernelKey k : KEYS) {
                    List<Measurement> with = ms.stream().filter(m -> m.deviceClass().equals(c) && m.key().equals(k)
                            && m.status() == Status.OK && o.figure(m) != null).toList();
                    Optional<TableEntry> found = t.lookup(c, k, o);
                    assertEquals(!with.isEmpty(), found.isPresent(), o + " " + c + " " + k.id());
                    if (with.isEmpty()) continue;
                    int newest = with.stream().mapToInt(Measurement::implementation).max().orElseThrow();
                    List<Measurement> only = ms.stream().filter(m -> m.implementation() == newest).toList();
                    assertEquals(table(only).lookup(c, k, o), found, o + " " + c + " " + k.id());
                    assertEquals(newest, found.get().implementation());
                }
            }
        }
    }

    /** A record line written before versions were recorded (no implementation field) reads, as implementation 0, and writes back without it. */
    @Property(tries = 100)
    void aRecordWithoutAnImplementationReadsAsZero(@ForAll("measurements") Measurement m) throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode line = org.tunefarm.protocol.Protocol.JSON.valueToTree(m.ofImplementation(2));
        assertEquals(2, line.get("implementation").asInt());
        line.remove("implementation");
        Measurement read = org.tunefarm.protocol.Protocol.JSON.treeToValue(line, Measurement.class);
        assertEquals(m.ofImplementation(0), read);
        assertTrue(!org.tunefarm.protocol.Protocol.write(read).contains("implementation"), "0 is not written: lines stay as they were");
    }
}
