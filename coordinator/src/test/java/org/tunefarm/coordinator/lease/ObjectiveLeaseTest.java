package org.tunefarm.coordinator.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tunefarm.kernel.SleepSpec;
import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Report;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Objective;
import org.tunefarm.protocol.Lease;

/** A sweep's objective in its leases, and deadlines that allow for cooling down and sustained runs. */
class ObjectiveLeaseTest {

    static final String SUSTAINED = DispatcherTest.SPEC.replace("finalists: 0", "finalists: 2, cooldownTimeoutMs: 5000")
            + "objective: sustained\nsustainedSeconds: 2.5\n";

    final DispatcherTest farm = new DispatcherTest();

    @Test
    void theDeadlineAllowsEachCandidateOneCooldownAndEachSustainedRun() {
        MeasureSettings m = MeasureSettings.DEFAULTS.withTimeoutMs(1000);
        Fidelity f = new Fidelity(0.05, 2, 3, 5000L);
        assertEquals(100 + 4 * 1000 + 5000 + LeaseDeadline.MARGIN_MS, LeaseDeadline.of(100, 4, m, f, 0));
        assertEquals(100 + 3 * 1000 + 5000 + 3 * 2500 + LeaseDeadline.MARGIN_MS, LeaseDeadline.of(100, 3, m, f, 2.5));
        assertEquals(100 + 3 * 1000 + 3 * 334 + LeaseDeadline.MARGIN_MS, LeaseDeadline.of(100, 3, m, new Fidelity(0.05, 2, 3, 0L), 0.3339),
                "a sustained allowance is rounded up to whole ms, never down");
    }

    @Test
    void aSustainedSweepExploresWithShortMeasurementsThenItsFinalistsRunSustained() {
        farm.start(SUSTAINED, DispatcherTest.HEARTBEAT_MS);
        farm.register("a1");
        Lease l = farm.pull("a1");
        while (l.round() == 0) {
            assertEquals(Objective.SUSTAINED, l.objective(), "every lease names the sweep's objective");
            assertEquals(0.0, l.sustainedSeconds(), "exploring measures short bursts");
            assertEquals(5000L, l.fidelity().cooldownTimeoutMs());
            assertEquals(farm.now + l.candidates().size() * 1000L + 5000 + LeaseDeadline.MARGIN_MS, l.deadline());
            farm.reportAll(l);
            l = farm.pull("a1");
        }
        assertEquals(1, l.round());
        assertEquals(Objective.SUSTAINED, l.objective());
        assertEquals(2.5, l.sustainedSeconds());
        assertEquals(2, l.candidates().size());
        assertEquals(farm.now + 2 * 1000 + 5000 + 2 * 2500 + LeaseDeadline.MARGIN_MS, l.deadline());

        // A finalists' lease that runs out (a board that never cooled, a run that overran) is lent
        // again whole: nothing of it is lost.
        farm.now = l.deadline() + 1;
        farm.dispatcher.tick();
        farm.register("a1");
        Lease again = farm.pull("a1");
        assertEquals(DispatcherTest.indices(l), DispatcherTest.indices(again));
        assertEquals(2.5, again.sustainedSeconds());
    }

    @Test
    void aCandidateLeaseThatRunsOutWhileItsBoardCoolsGoesBackToTheQueue() {
        farm.start(DispatcherTest.SPEC.replace("finalists: 0", "finalists: 0, cooldownTimeoutMs: 60000") + "objective: energy\n", 3_600_000);
        farm.register("a1");
        Lease l = farm.pull("a1");
        assertEquals(Objective.ENERGY, l.objective());
        assertEquals(0.0, l.sustainedSeconds());
        farm.now = l.deadline() - 1; // within the cooldown allowance: still held
        farm.dispatcher.tick();
        assertEquals(l.leaseId(), farm.agent("a1").leaseId());
        farm.now = l.deadline() + 1;
        farm.dispatcher.tick();
        assertNull(farm.agent("a1").leaseId());
        assertEquals(DispatcherTest.indices(l), DispatcherTest.indices(farm.pull("a1")), "the whole batch is lent again");
    }

    /** An OK measurement of the sleep kernel with an energy reading that falls as the sleep grows: the slowest is the thriftiest. */
    static Measurement withEnergy(Lease l, Lease.Candidate c) {
        Measurement m = DispatcherTest.ok(l, c);
        return new Measurement(m.sweepId(), m.key(), m.index(), m.params(), m.status(), m.stats(), m.maxError(), m.before(), m.after(), m.detail(),
                m.agentId(), m.deviceClass(), m.startedAt(), m.finishedAt(), m.order(), m.round(), null, null, 1.0 / m.stats().medianNs());
    }

    /** Explores the whole space with {@code measure}, and returns the first finalists' lease. */
    Lease exploreThenFinalists(java.util.function.BiFunction<Lease, Lease.Candidate, Measurement> measure) {
        farm.register("a1");
        Lease l = farm.pull("a1");
        while (l.round() == 0) {
            Lease held = l;
            farm.deliver(new Report("a1", l.leaseId(), l.candidates().stream().map(c -> measure.apply(held, c)).toList(), true));
            l = farm.pull("a1");
        }
        return l;
    }

    List<Long> ranked(java.util.Comparator<Measurement> by, int n) {
        return farm.store.values().stream().filter(m -> m.index() >= 0 && m.status() == Status.OK).sorted(by.thenComparingLong(Measurement::index))
                .limit(n).map(Measurement::index).toList();
    }

    @Test
    void anEnergySweepPicksItsFinalistsByEnergyPerCall() {
        farm.start(DispatcherTest.SPEC.replace("finalists: 0", "finalists: 2") + "objective: energy\n", DispatcherTest.HEARTBEAT_MS);
        Lease f = exploreThenFinalists(ObjectiveLeaseTest::withEnergy);
        assertEquals(ranked(java.util.Comparator.comparingDouble(Measurement::energyJ), 2), DispatcherTest.indices(f));
        assertNotEquals(ranked(java.util.Comparator.comparingDouble(m -> m.stats().medianNs()), 2), DispatcherTest.indices(f),
                "here the thriftiest are the slowest");
        assertNull(farm.progress().warning());
    }

    @Test
    void anEnergySweepOnBoardsWithoutEnergyReadingsRanksByLatencyAndSaysSo() {
        farm.start(DispatcherTest.SPEC.replace("finalists: 0", "finalists: 2") + "objective: edp\n", DispatcherTest.HEARTBEAT_MS);
        Lease f = exploreThenFinalists(DispatcherTest::ok);
        assertEquals(ranked(java.util.Comparator.comparingDouble(m -> m.stats().medianNs()), 2), DispatcherTest.indices(f));
        assertTrue(farm.progress().warning().contains("no energy readings"), farm.progress().warning());
    }

    @Test
    void aThrottledMeasurementIsAFailedTrialAndNeverAFinalist() {
        farm.start(DispatcherTest.SPEC.replace("finalists: 0", "finalists: 2"), DispatcherTest.HEARTBEAT_MS);
        // The fastest point of the space (sleep's shortest sleep) ran throttled.
        var space = farm.space();
        long fastest = -1;
        for (var it = space.validIndices(0, space.size()); it.hasNext(); ) {
            long i = it.next();
            if (fastest < 0 || SleepSpec.sleepMicros(DispatcherTest.KEY, space.config(i)) < SleepSpec.sleepMicros(DispatcherTest.KEY, space.config(fastest))) fastest = i;
        }
        long throttled = fastest;
        Lease f = exploreThenFinalists((l, c) -> c.index() == throttled
                ? DispatcherTest.measured(l, c, Status.THROTTLED, DispatcherTest.ok(l, c).stats()) : DispatcherTest.ok(l, c));
        assertEquals(Status.THROTTLED, farm.store.values().stream().filter(m -> m.index() == throttled).findFirst().orElseThrow().status());
        assertFalse(DispatcherTest.indices(f).contains(throttled), "a throttled candidate is never a finalist");
        assertEquals(1, farm.progress().throttled());
        assertEquals(1, farm.progress().failed());
    }
}
