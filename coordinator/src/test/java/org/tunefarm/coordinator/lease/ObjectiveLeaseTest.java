package org.tunefarm.coordinator.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.tunefarm.measure.Fidelity;
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
}
