package org.tunefarm.coordinator.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.tunefarm.coordinator.sweep.Search;
import org.tunefarm.coordinator.sweep.SweepRun;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpecs;
import org.tunefarm.kernel.SleepSpec;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Heartbeat;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.ProtocolException;
import org.tunefarm.protocol.Register;
import org.tunefarm.protocol.Report;
import org.tunefarm.protocol.Work;
import org.tunefarm.space.SearchSpace;

/** Drives the dispatcher with a fake clock and a sleep sweep, standing in for the record log. */
class DispatcherTest {
    static final long HEARTBEAT_MS = 1_000;
    static final DeviceProfile PROFILE = new DeviceProfile("Ryzen 7 7700", "zen4", 8, 16, 32, 1024, 32768, 32, "Linux", "amd64",
            "Eclipse Adoptium", 25, 512, List.of(), Map.of());
    static final String CLASS = PROFILE.deviceClass();
    static final KernelKey KEY = new KernelKey("sleep", Map.of("unitUs", 100), "fp32");

    /** 12 points, of which a + b <= 15 keeps 6. */
    static final String SPEC = """
            kernel: sleep
            shapes: [{unitUs: 100}]
            space: {a: [4, 5, 6], b: [10, 11], mode: [fast, slow]}
            constraints: ['a + b <= 15']
            strategy: {name: exhaustive, budget: 0}
            measure: {timeoutMs: 1000, finalists: 0}
            batchSize: 4
            """;

    long now = 1_700_000_000_000L;
    Dispatcher dispatcher;
    SweepRun sweep;
    /** The record log: id → measurement, in append order, each stored once. */
    final Map<String, Measurement> store = new LinkedHashMap<>();

    void start(String spec, long heartbeatMs) {
        dispatcher = new Dispatcher(() -> now, heartbeatMs, new Dispatcher.Listener() {});
        SweepSpec s = SweepSpecReader.read(spec);
        sweep = new SweepRun("sw1", s, now);
        dispatcher.add(sweep);
    }

    void start() {
        start(SPEC, HEARTBEAT_MS);
    }

    void register(String agentId) {
        dispatcher.register(new Register(agentId, PROFILE, List.of("sleep")));
    }

    Lease pull(String agentId) {
        Work w = dispatcher.pull(agentId);
        assertNotNull(w.lease(), "expected work for " + agentId);
        return w.lease();
    }

    static Measurement ok(Lease l, Lease.Candidate c) {
        double ns = SleepSpec.sleepMicros(l.key(), c.params()) * 1000.0;
        return measured(l, c, Status.OK, Stats.of(new double[] {ns * 1.01, ns, ns * 1.02}, 4));
    }

    static Measurement measured(Lease l, Lease.Candidate c, Status status, Stats stats) {
        return new Measurement(l.sweepId(), l.key(), c.index(), c.params(), status, stats, status == Status.OK ? 0.0 : null,
                SensorReading.NONE, SensorReading.NONE, "", l.agentId(), CLASS, 1000, 1001, 0, l.round());
    }

    /** What the farm does with a report: check, append what is new, then tell the dispatcher. */
    List<Measurement> deliver(Report r) {
        List<Measurement> fresh = persist(dispatcher.check(r));
        dispatcher.persisted(r, fresh);
        return fresh;
    }

    List<Measurement> persist(List<Measurement> checked) {
        List<Measurement> fresh = new ArrayList<>();
        for (Measurement m : checked) if (store.putIfAbsent(m.recordId(), m) == null) fresh.add(m);
        return fresh;
    }

    List<Measurement> reportAll(Lease l) {
        return deliver(new Report(l.agentId(), l.leaseId(), l.candidates().stream().map(c -> ok(l, c)).toList(), true));
    }

    SearchSpace space() {
        SweepSpec s = sweep.spec();
        return KernelSpecs.get("sleep").space(KEY, PROFILE.logicalCores()).narrow(s.space(), s.constraints());
    }

    Search.Progress progress() {
        return sweep.status(now).searches().get(0);
    }

    AgentInfo agent(String id) {
        return dispatcher.agents().stream().filter(a -> a.agentId().equals(id)).findFirst().orElseThrow();
    }

    static List<Long> indices(Lease l) {
        return l.candidates().stream().map(Lease.Candidate::index).toList();
    }

    static void assertRefused(String field, Executable e) {
        ProtocolException x = assertThrows(ProtocolException.class, e);
        assertTrue(x.getMessage().startsWith(field + ":"), "expected '" + field + "' in: " + x.getMessage());
    }

    @Test
    void leasesAreSizedToLastLeaseSecondsOnceAnAgentFinishedOne() {
        // The whole sleep space, leases sized by time: 8 first, then as many as last 2 s.
        start("""
                kernel: sleep
                shapes: [{unitUs: 100}]
                strategy: {name: exhaustive, budget: 0}
                measure: {timeoutMs: 1000, finalists: 0}
                leaseSeconds: 2
                """, HEARTBEAT_MS);
        register("a1");
        Lease first = pull("a1");
        assertTrue(first.candidates().size() <= LeaseSizer.FIRST && first.candidates().size() > 1, "at most the first size: " + indices(first));
        now += 100L * first.candidates().size(); // 100 ms a candidate, round trips included
        reportAll(first);
        Lease second = pull("a1");
        assertEquals(20, second.candidates().size(), "2 s at 100 ms a candidate");
        now += 20 * 20; // faster now: 20 ms a candidate; the estimate is the average, 60 ms
        reportAll(second);
        assertEquals(33, pull("a1").candidates().size());
    }

    @Test
    void firstLeaseStartsWithTheBaselineThenProposals() {
        start();
        register("a1");
        Lease l = pull("a1");
        assertEquals("sw1", l.sweepId());
        assertEquals("a1", l.agentId());
        assertEquals(KEY, l.key());
        assertEquals(1000, l.measure().timeoutMs());
        assertTrue(l.deadline() > now);
        assertEquals(4, l.candidates().size());
        assertEquals(new Lease.Candidate(Lease.Candidate.BASELINE, KernelSpecs.get("sleep").defaultConfig(KEY, 16)), l.candidates().get(0));
        SearchSpace space = space();
        for (Lease.Candidate c : l.candidates().subList(1, 4)) {
            assertTrue(c.index() >= 0 && space.isValid(c.index()), "valid index " + c.index());
            assertEquals(space.config(c.index()), c.params());
        }
        assertEquals(l.leaseId(), agent("a1").leaseId());
    }

    @Test
    void reportedMeasurementsAreCountedInProgress() {
        start();
        register("a1");
        Lease l = pull("a1");
        Lease.Candidate base = l.candidates().get(0);
        Lease.Candidate first = l.candidates().get(1);
        deliver(new Report("a1", l.leaseId(), List.of(ok(l, base), ok(l, first)), false));
        Search.Progress p = progress();
        assertTrue(p.baselineMeasured());
        assertEquals(1, p.measured());
        assertEquals(2, p.pending());
        assertEquals(l.leaseId(), agent("a1").leaseId(), "an unfinished lease stays held");

        Lease.Candidate second = l.candidates().get(2);
        deliver(new Report("a1", l.leaseId(), List.of(measured(l, second, Status.TIMEOUT, null), ok(l, l.candidates().get(3))), true));
        p = progress();
        assertEquals(3, p.measured());
        assertEquals(1, p.failed());
        assertEquals(0, p.pending());
        assertFalse(p.done());
        assertNull(agent("a1").leaseId());
        assertEquals(4, agent("a1").measured());
    }

    @Test
    void theClosingDoneOfALeaseItsResultsCompletedIsAcceptedOnlyFromItsAgent() {
        start();
        register("a1");
        register("a2");
        Lease l = pull("a1");
        // One result at a time, as the agent sends them: the last one ends the lease.
        for (Lease.Candidate c : l.candidates()) deliver(new Report("a1", l.leaseId(), List.of(ok(l, c)), false));
        assertNull(agent("a1").leaseId(), "the last result ended the lease");
        assertEquals(List.of(), deliver(new Report("a1", l.leaseId(), List.of(), true)), "the agent's closing done is accepted");
        assertEquals(4, progress().measured() + (progress().baselineMeasured() ? 1 : 0));
        assertRefused("leaseId", () -> dispatcher.check(new Report("a2", l.leaseId(), List.of(), true)));
        assertRefused("leaseId", () -> dispatcher.check(new Report("a1", l.leaseId(), List.of(ok(l, l.candidates().get(1))), true)));
        assertRefused("leaseId", () -> dispatcher.check(new Report("a1", "no-such-lease", List.of(), true)));
    }

    @Test
    void aRepeatedReportIsNotCountedTwice() {
        start();
        register("a1");
        Lease l = pull("a1");
        Report r = new Report("a1", l.leaseId(), List.of(ok(l, l.candidates().get(1)), ok(l, l.candidates().get(1))), false);
        assertEquals(1, deliver(r).size());
        assertEquals(0, deliver(r).size());
        assertEquals(1, progress().measured());
    }

    @Test
    void reportsThatDoNotMatchTheirLeaseAreRefusedNamingTheField() {
        start();
        register("a1");
        register("a2");
        Lease l1 = pull("a1");
        Lease l2 = pull("a2");
        Lease.Candidate c = l1.candidates().get(1);
        Measurement good = ok(l1, c);
        Function<Measurement, Report> one = m -> new Report("a1", l1.leaseId(), List.of(m), false);

        assertRefused("agentId", () -> dispatcher.check(new Report("ghost", l1.leaseId(), List.of(good), false)));
        assertRefused("leaseId", () -> dispatcher.check(new Report("a2", l1.leaseId(), List.of(good), false)));
        assertRefused("leaseId", () -> dispatcher.check(new Report("a1", "no-such-lease", List.of(good), false)));
        assertRefused("leaseId", () -> dispatcher.check(new Report("a1", null, List.of(good), false)));
        assertRefused("measurements", () -> dispatcher.check(new Report("a1", l1.leaseId(), null, false)));

        Lease.Candidate notOurs = l2.candidates().get(1);
        assertRefused("measurements[0].index", () -> dispatcher.check(one.apply(measured(l1, notOurs, Status.OK, good.stats()))));
        Lease.Candidate wrongParams = new Lease.Candidate(c.index(), Map.of("a", 15, "b", 0, "mode", "fast"));
        assertRefused("measurements[0].params", () -> dispatcher.check(one.apply(measured(l1, wrongParams, Status.OK, good.stats()))));
        Stats s = good.stats();
        Stats nan = new Stats(s.minNs(), Double.NaN, s.meanNs(), s.stdevNs(), s.cv(), s.samples(), s.callsPerSample());
        assertRefused("measurements[0].stats.medianNs", () -> dispatcher.check(one.apply(measured(l1, c, Status.OK, nan))));
        Stats negative = new Stats(-5, s.medianNs(), s.meanNs(), s.stdevNs(), s.cv(), s.samples(), s.callsPerSample());
        assertRefused("measurements[0].stats.minNs", () -> dispatcher.check(one.apply(measured(l1, c, Status.OK, negative))));
        Stats negativeStdev = new Stats(s.minNs(), s.medianNs(), s.meanNs(), -1, s.cv(), s.samples(), s.callsPerSample());
        assertRefused("measurements[0].stats.stdevNs", () -> dispatcher.check(one.apply(measured(l1, c, Status.OK, negativeStdev))));
        assertRefused("measurements[0].stats", () -> dispatcher.check(one.apply(measured(l1, c, Status.OK, null))));
        assertRefused("measurements[1].stats", () -> dispatcher.check(new Report("a1", l1.leaseId(), List.of(good, measured(l1, c, Status.OK, null)), false)));

        // nothing refused reached the search
        assertEquals(0, progress().measured());
        assertEquals(List.of(good), dispatcher.check(one.apply(good)));
    }

    @Test
    void missedHeartbeatsMarkAnAgentDeadAndItsUnreportedCandidatesGoToTheNextPull() {
        start();
        register("a1");
        Lease l = pull("a1");
        deliver(new Report("a1", l.leaseId(), List.of(ok(l, l.candidates().get(0)), ok(l, l.candidates().get(1))), false));
        now += 3 * HEARTBEAT_MS + 1;
        register("a2");
        dispatcher.tick();
        assertFalse(agent("a1").alive());
        assertNull(agent("a1").leaseId());
        assertTrue(agent("a2").alive());

        Lease next = pull("a2");
        assertEquals(List.of(l.candidates().get(2), l.candidates().get(3)), next.candidates().subList(0, 2));
        assertFalse(indices(next).contains(Lease.Candidate.BASELINE), "the baseline was already measured");
        assertFalse(indices(next).contains(l.candidates().get(1).index()), "a reported candidate is not lent again");
        assertRefused("leaseId", () -> dispatcher.check(new Report("a1", l.leaseId(), List.of(ok(l, l.candidates().get(2))), true)));
    }

    @Test
    void heartbeatsKeepAnAgentAndItsLeaseAlive() {
        start();
        register("a1");
        Lease l = pull("a1");
        for (int i = 0; i < 10; i++) {
            now += HEARTBEAT_MS;
            dispatcher.heartbeat(new Heartbeat("a1", l.leaseId(), SensorReading.NONE));
            dispatcher.tick();
        }
        assertTrue(agent("a1").alive());
        assertEquals(l.leaseId(), agent("a1").leaseId());
        assertEquals(4, reportAll(l).size());
    }

    @Test
    void anAgentThatWasPresumedDeadComesBackWithAHeartbeat() {
        start();
        register("a1");
        now += 3 * HEARTBEAT_MS + 1;
        dispatcher.tick();
        assertFalse(agent("a1").alive());
        dispatcher.heartbeat(new Heartbeat("a1", null, SensorReading.NONE));
        assertTrue(agent("a1").alive());
        pull("a1");
    }

    @Test
    void anAgentDeadForADayIsForgottenAndMayRegisterAfresh() {
        List<String> forgotten = new ArrayList<>();
        dispatcher = new Dispatcher(() -> now, HEARTBEAT_MS, new Dispatcher.Listener() {
            @Override public void agentForgotten(String agentId) {
                forgotten.add(agentId);
            }
        });
        sweep = new SweepRun("sw1", SweepSpecReader.read(SPEC), now);
        dispatcher.add(sweep);
        register("a1");
        register("a2");
        now += 3 * HEARTBEAT_MS + 1;
        dispatcher.heartbeat(new Heartbeat("a2", null, SensorReading.NONE));
        dispatcher.tick();
        assertFalse(agent("a1").alive());
        now += Dispatcher.FORGET_DEAD_MS - 10 * HEARTBEAT_MS;
        dispatcher.heartbeat(new Heartbeat("a2", null, SensorReading.NONE));
        dispatcher.tick();
        assertEquals(List.of(), forgotten, "dead, but not for a day yet");
        now += 20 * HEARTBEAT_MS;
        dispatcher.heartbeat(new Heartbeat("a2", null, SensorReading.NONE));
        dispatcher.tick();
        assertEquals(List.of("a1"), forgotten);
        assertEquals(List.of("a2"), dispatcher.agents().stream().map(AgentInfo::agentId).toList(), "a live agent is never forgotten");
        assertRefused("agentId", () -> dispatcher.pull("a1"));
        register("a1");
        pull("a1");
    }

    @Test
    void expiredLeasesAreRememberedBoundedly() {
        start(SPEC, 3_600_000);
        register("a1");
        Lease first = pull("a1");
        now = first.deadline() + 1;
        dispatcher.tick();
        Report late = new Report("a1", first.leaseId(), List.of(ok(first, first.candidates().get(0))), true);
        ProtocolException e = assertThrows(ProtocolException.class, () -> dispatcher.check(late));
        assertTrue(e.getMessage().contains("has expired"), e.getMessage());
        for (int i = 0; i < Dispatcher.EXPIRED_KEPT; i++) {
            Lease l = pull("a1");
            now = l.deadline() + 1;
            dispatcher.tick();
        }
        e = assertThrows(ProtocolException.class, () -> dispatcher.check(late));
        assertTrue(e.getMessage().contains("unknown lease"), "the oldest expiry is forgotten: " + e.getMessage());
    }

    @Test
    void aSweepOverForTenMinutesLetsItsSearchesGoAndKeepsItsStatus() {
        start();
        register("a1");
        Lease first = null;
        while (true) {
            Work w = dispatcher.pull("a1");
            if (w.lease() == null) break;
            if (first == null) first = w.lease();
            reportAll(w.lease());
        }
        assertEquals("done", sweep.state(now));
        SweepRun.Status before = sweep.status(now);
        dispatcher.tick();
        now += Dispatcher.RETIRE_AFTER_MS - 1;
        dispatcher.tick();
        assertFalse(sweep.retired(), "not yet");
        now += 1;
        dispatcher.tick();
        assertTrue(sweep.retired());
        assertNull(sweep.search(CLASS, KEY), "its searches are gone");
        assertEquals(before.searches(), sweep.status(now).searches(), "the status it ended with is kept");
        assertEquals("done", sweep.status(now).state());
        assertTrue(sweep.hasClass(CLASS));
        assertNull(dispatcher.pull("a1").lease(), "a retired sweep lends nothing");
        sweep.recorded(ok(first, first.candidates().get(1))); // a late copy of one of its records changes nothing
        assertEquals(before.searches(), sweep.status(now).searches());
    }

    /**
     * The leader keeps in the sweep log that it let a sweep go; a restart restores that sweep as it
     * was let go, with its final status, and its records (replayed after) rebuild no search.
     */
    @Test
    void aSweepLetGoIsRestoredLetGoFromItsSweepLogLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        List<SweepRun> retired = new ArrayList<>();
        dispatcher = new Dispatcher(() -> now, HEARTBEAT_MS, new Dispatcher.Listener() {
            @Override public void sweepRetired(SweepRun s, long at) {
                retired.add(s);
            }
        });
        sweep = new SweepRun("sw1", SweepSpecReader.read(SPEC), now);
        dispatcher.add(sweep);
        register("a1");
        for (Work w = dispatcher.pull("a1"); w.lease() != null; w = dispatcher.pull("a1")) reportAll(w.lease());
        SweepRun.Status over = sweep.status(now);
        dispatcher.tick();
        now += Dispatcher.RETIRE_AFTER_MS;
        dispatcher.tick();
        assertEquals(List.of(sweep), retired, "the listener hears of it once it lets its searches go");

        org.tunefarm.coordinator.store.SweepLog log = new org.tunefarm.coordinator.store.SweepLog(dir.resolve("sweeps.jsonl"));
        log.append(new org.tunefarm.coordinator.store.SweepLog.Entry("sw1", over.createdAt(), sweep.spec()));
        log.append(org.tunefarm.coordinator.store.SweepLog.Entry.retired("sw1", now, sweep.retiredSearches()));
        List<org.tunefarm.coordinator.store.SweepLog.Entry> entries = new org.tunefarm.coordinator.store.SweepLog(dir.resolve("sweeps.jsonl")).read();

        for (boolean withLine : new boolean[] {true, false}) {
            Dispatcher restarted = new Dispatcher(() -> now, HEARTBEAT_MS, new Dispatcher.Listener() {});
            SweepRun again = new SweepRun("sw1", sweep.spec(), over.createdAt());
            restarted.add(again);
            if (withLine) restarted.retireAsKept(entries);
            else restarted.retireAsKept(entries.stream().filter(e -> e.retired() == null).toList());
            store.values().forEach(restarted::replay);
            restarted.resume("sw1", CLASS, PROFILE.logicalCores(), PROFILE.vectorBits(), PROFILE.vectorRegisters(), over.createdAt());
            assertEquals(withLine, again.retired(), withLine ? "let go as it was" : "without the line it rebuilds its searches");
            assertEquals(withLine, again.search(CLASS, KEY) == null);
            assertEquals(over.searches(), again.status(now).searches(), "the same status either way");
            assertEquals("done", again.state(now));
        }
    }

    @Test
    void expiredLeaseReturnsBatchToQueue() {
        start(SPEC, 3_600_000); // heartbeats never run out here: only the deadline can expire the lease
        register("a1");
        register("a2");
        Lease l = pull("a1");
        now = l.deadline();
        dispatcher.tick();
        assertEquals(l.leaseId(), agent("a1").leaseId(), "not expired at the deadline itself");
        now = l.deadline() + 1;
        dispatcher.tick();
        assertTrue(agent("a1").alive());
        assertNull(agent("a1").leaseId());

        Lease next = pull("a2");
        assertEquals(indices(l), indices(next), "the baseline and the batch are lent again, first");
        assertRefused("leaseId", () -> dispatcher.check(new Report("a1", l.leaseId(), List.of(ok(l, l.candidates().get(1))), true)));
    }

    @Test
    void reRegisteringDropsTheOldLeaseBackToTheQueue() {
        start();
        register("a1");
        Lease l = pull("a1");
        register("a1");
        assertNull(agent("a1").leaseId());
        Lease again = pull("a1");
        assertEquals(indices(l), indices(again));
        assertRefused("leaseId", () -> dispatcher.check(new Report("a1", l.leaseId(), List.of(ok(l, l.candidates().get(1))), true)));
    }

    @Test
    void pullingAgainGivesUpTheHeldLease() {
        start();
        register("a1");
        register("a2");
        Lease l = pull("a1");
        Lease again = pull("a1");
        assertEquals(indices(l), indices(again));
        assertEquals(again.leaseId(), agent("a1").leaseId());
        assertRefused("leaseId", () -> dispatcher.check(new Report("a1", l.leaseId(), List.of(ok(l, l.candidates().get(1))), true)));
        Lease other = pull("a2");
        for (long i : indices(other)) assertFalse(indices(again).contains(i), "candidate " + i + " lent twice");
    }

    @Test
    void exhaustiveSearchRecordsEveryValidPointExactlyOnceAndFinishes() {
        start();
        register("a1");
        register("a2");
        List<Long> recorded = new ArrayList<>();
        int round = 0;
        while (true) {
            Work w1 = dispatcher.pull("a1");
            Work w2 = dispatcher.pull("a2");
            if (w1.lease() == null && w2.lease() == null) break;
            assertTrue(++round < 50, "the sweep does not converge");
            if (w1.lease() != null) reportAll(w1.lease()).forEach(m -> recorded.add(m.index()));
            if (w2.lease() != null) {
                Lease l = w2.lease();
                // a2 only ever finishes the first half of its batch, then goes quiet until it expires
                List<Measurement> half = l.candidates().subList(0, (l.candidates().size() + 1) / 2).stream().map(c -> ok(l, c)).toList();
                deliver(new Report("a2", l.leaseId(), half, false)).forEach(m -> recorded.add(m.index()));
                now = l.deadline() + 1;
                dispatcher.heartbeat(new Heartbeat("a1", null, SensorReading.NONE));
                dispatcher.heartbeat(new Heartbeat("a2", l.leaseId(), SensorReading.NONE));
                dispatcher.tick();
            }
        }
        List<Long> valid = new ArrayList<>();
        for (Iterator<Long> it = space().validIndices(); it.hasNext(); ) valid.add(it.next());
        valid.add(Lease.Candidate.BASELINE);
        assertEquals(valid.stream().sorted().toList(), recorded.stream().sorted().toList());
        assertEquals(7, store.size());
        assertTrue(sweep.done(now));
        assertEquals("done", sweep.status(now).state());
        Search.Progress p = progress();
        assertEquals(6, p.measured());
        assertEquals(0, p.pending());
        assertTrue(p.done());
    }

    @Test
    void budgetIsRespected() {
        start(SPEC.replace("budget: 0", "budget: 3").replace("constraints: ['a + b <= 15']", "constraints: []"), HEARTBEAT_MS);
        register("a1");
        int proposals = 0;
        for (int i = 0; i < 10; i++) {
            Work w = dispatcher.pull("a1");
            if (w.lease() == null) break;
            proposals += (int) w.lease().candidates().stream().filter(c -> c.index() >= 0).count();
            reportAll(w.lease());
        }
        assertEquals(3, proposals);
        assertEquals(4, store.size(), "three candidates and the baseline");
        assertTrue(sweep.done(now));
        assertNull(dispatcher.pull("a1").lease());
    }

    @Test
    void measurementsMadeDurableAfterTheirLeaseExpiredStillCount() {
        start();
        register("a1");
        register("a2");
        Lease l = pull("a1");
        Report r = new Report("a1", l.leaseId(), l.candidates().stream().map(c -> ok(l, c)).toList(), true);
        List<Measurement> checked = dispatcher.check(r);
        // while the record log is fsyncing, the lease runs out
        now = l.deadline() + 1;
        dispatcher.heartbeat(new Heartbeat("a1", l.leaseId(), SensorReading.NONE));
        dispatcher.heartbeat(new Heartbeat("a2", null, SensorReading.NONE));
        dispatcher.tick();
        dispatcher.persisted(r, persist(checked));

        assertEquals(3, progress().measured());
        assertTrue(progress().baselineMeasured());
        Lease next = pull("a2");
        for (Lease.Candidate c : l.candidates()) {
            assertFalse(indices(next).contains(c.index()), "durable candidate " + c.index() + " lent again");
        }
        reportAll(next);
        assertNull(dispatcher.pull("a2").lease());
        assertTrue(sweep.done(now), "the sweep finishes");
    }

    @Test
    void finalistsAreReMeasuredInterleavedOnOneBoardThenOnASecondAndTheSweepWaitsForRoundOne() {
        start(SPEC.replace("finalists: 0", "finalists: 2"), HEARTBEAT_MS);
        register("a1");
        register("a2");
        // Explore everything: the baseline and the six valid points.
        while (true) {
            Work w = dispatcher.pull("a1");
            if (w.lease() == null || w.lease().round() > 0) {
                assertNotNull(w.lease(), "finalists follow exploring");
                Lease r1 = w.lease();
                assertEquals(1, r1.round());
                assertTrue(r1.interleaved());
                assertEquals(2, r1.candidates().size());
                // The two fastest first-round points (sleep: the shortest sleeps).
                List<Long> fastest = store.values().stream().filter(m -> m.index() >= 0)
                        .sorted(java.util.Comparator.comparingDouble((Measurement m) -> m.stats().medianNs()).thenComparingLong(Measurement::index))
                        .limit(2).map(Measurement::index).toList();
                assertEquals(fastest, indices(r1));
                assertFalse(sweep.done(now), "not done while round 1 is out");
                assertNull(sweep.search(CLASS, KEY).takeFinalists("a1", now), "round 2 goes to another board");
                Lease r2 = pull("a2");
                assertEquals(2, r2.round());
                assertRefused("measurements[0].round", () -> dispatcher.check(new Report("a1", r1.leaseId(), List.of(ok(r2, r2.candidates().get(0)).inRound(0)).stream()
                        .map(m -> new Measurement(m.sweepId(), m.key(), m.index(), m.params(), m.status(), m.stats(), m.maxError(), m.before(), m.after(), m.detail(),
                                "a1", m.deviceClass(), 1, 2, 0, 0)).toList(), true)));
                List<Measurement> fresh = reportAll(r1);
                assertEquals(2, fresh.size(), "round records are new records");
                assertFalse(sweep.done(now), "round 2 is still out");
                reportAll(r2);
                assertTrue(sweep.done(now));
                assertEquals(7 + 4, store.size());
                return;
            }
            reportAll(w.lease());
        }
    }

    @Test
    void anExpiredFinalistsLeaseIsLentAgain() {
        start(SPEC.replace("finalists: 0", "finalists: 1"), HEARTBEAT_MS);
        register("a1");
        Lease l = pull("a1");
        while (l.round() == 0) {
            reportAll(l);
            l = pull("a1");
        }
        assertEquals(1, l.round());
        now = l.deadline() + 1;
        dispatcher.tick();
        register("a1");
        Lease again = pull("a1");
        assertEquals(1, again.round());
        assertEquals(indices(l), indices(again));
    }
}
