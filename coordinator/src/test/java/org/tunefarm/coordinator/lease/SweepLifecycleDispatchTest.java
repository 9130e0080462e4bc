package org.tunefarm.coordinator.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.coordinator.sweep.SweepRun;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.ProtocolException;
import org.tunefarm.protocol.Register;
import org.tunefarm.protocol.Report;
import org.tunefarm.protocol.Work;

/** Pause, resume, cancel and priority as the dispatcher applies them, on a fake clock. */
class SweepLifecycleDispatchTest {
    long now = 1_700_000_000_000L;
    final Dispatcher dispatcher = new Dispatcher(() -> now, 1_000, new Dispatcher.Listener() {});
    final Map<String, Measurement> store = new LinkedHashMap<>();

    SweepRun sweep(String id, int priority) {
        SweepRun s = new SweepRun(id, SweepSpecReader.read(DispatcherTest.SPEC.replace("batchSize: 4", "batchSize: 1") + "priority: " + priority + "\n"), now);
        dispatcher.add(s);
        return s;
    }

    Lease pull(String agent) {
        Work w = dispatcher.pull(agent);
        assertNotNull(w.lease(), "expected work for " + agent);
        return w.lease();
    }

    /** Reports the lease's first candidate, as the farm does: check, store, then tell the dispatcher. */
    String reportFirst(Lease l, boolean done) {
        Report r = new Report(l.agentId(), l.leaseId(), List.of(DispatcherTest.ok(l, l.candidates().get(0))), done);
        List<Measurement> fresh = new ArrayList<>();
        for (Measurement m : dispatcher.check(r)) if (store.putIfAbsent(m.recordId(), m) == null) fresh.add(m);
        return dispatcher.persisted(r, fresh);
    }

    void control(String id, SweepControl.Action a, int priority) {
        SweepControl c = new SweepControl(id, now, a, priority);
        if (dispatcher.allows(c)) dispatcher.apply(c);
    }

    @Test void higherPriorityLeasesFirstAndEqualPrioritiesTakeTurns() {
        dispatcher.register(new Register("a1", DispatcherTest.PROFILE, List.of("sleep")));
        sweep("low", 0);
        sweep("high", 5);
        // 6 valid points + the baseline, one per lease: the high sweep gets every lease until it has none left.
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            Lease l = pull("a1");
            order.add(l.sweepId());
            reportFirst(l, true);
        }
        assertEquals(List.of("high", "high", "high", "high", "high", "high", "high"), order);
        assertEquals("low", pull("a1").sweepId(), "then the lower one");

        SweepLifecycleDispatchTest equal = new SweepLifecycleDispatchTest();
        equal.dispatcher.register(new Register("a1", DispatcherTest.PROFILE, List.of("sleep")));
        equal.sweep("x", 1);
        equal.sweep("y", 1);
        List<String> turns = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Lease l = equal.pull("a1");
            turns.add(l.sweepId());
            equal.reportFirst(l, true);
        }
        assertEquals(3, turns.stream().filter("x"::equals).count(), "equal priorities share: " + turns);
        for (int i = 1; i < turns.size(); i++) assertFalse(turns.get(i).equals(turns.get(i - 1)), "they alternate: " + turns);
    }

    @Test void raisingAPriorityReordersAtTheNextPull() {
        dispatcher.register(new Register("a1", DispatcherTest.PROFILE, List.of("sleep")));
        sweep("first", 0);
        sweep("second", 0);
        control("second", SweepControl.Action.PRIORITY, 10);
        assertEquals(10, dispatcher.sweep("second").status(now).priority());
        for (int i = 0; i < 3; i++) {
            Lease l = pull("a1");
            assertEquals("second", l.sweepId());
            reportFirst(l, true);
        }
    }

    @Test void pausedSweepLendsNothingStopsItsLeaseAtTheNextReportAndResumesWhereItWas() {
        SweepRun s = new SweepRun("p", SweepSpecReader.read(DispatcherTest.SPEC), now); // 4 per lease
        dispatcher.add(s);
        dispatcher.register(new Register("a1", DispatcherTest.PROFILE, List.of("sleep")));
        Lease l = pull("a1");
        assertEquals(4, l.candidates().size());
        control("p", SweepControl.Action.PAUSE, 0);
        assertEquals("paused", s.status(now).state());
        // The candidate measured meanwhile is kept, and the agent is told to stop.
        assertEquals("sweep p is paused", reportFirst(l, false));
        assertEquals(1, store.size());
        assertNull(dispatcher.pull("a1").lease(), "no new lease while paused");
        // The three unmeasured candidates went back to the queue: resuming measures every point once.
        control("p", SweepControl.Action.RESUME, 0);
        assertEquals("running", s.status(now).state());
        // The search learns it is exhausted when a pull finds nothing more to propose.
        for (Work w = dispatcher.pull("a1"); w.lease() != null; w = dispatcher.pull("a1")) {
            Lease next = w.lease();
            for (Lease.Candidate c : next.candidates()) {
                Report r = new Report("a1", next.leaseId(), List.of(DispatcherTest.ok(next, c)), false);
                for (Measurement m : dispatcher.check(r)) store.putIfAbsent(m.recordId(), m);
                assertNull(dispatcher.persisted(r, List.of()));
            }
        }
        assertEquals("done", s.status(now).state());
        assertEquals(7, store.size(), "6 valid points and the baseline, each once");
    }

    @Test void cancelKeepsWhatWasMeasuredAndForbidsResuming() {
        SweepRun s = new SweepRun("c", SweepSpecReader.read(DispatcherTest.SPEC), now);
        dispatcher.add(s);
        dispatcher.register(new Register("a1", DispatcherTest.PROFILE, List.of("sleep")));
        Lease l = pull("a1");
        control("c", SweepControl.Action.CANCEL, 0);
        assertEquals("sweep c is cancelled", reportFirst(l, false));
        assertEquals(1, store.size(), "a measurement taken under a valid lease is recorded");
        assertEquals("cancelled", s.status(now).state());
        assertNull(dispatcher.pull("a1").lease());
        SweepControl.Refused e = assertThrows(SweepControl.Refused.class,
                () -> dispatcher.allows(new SweepControl("c", now, SweepControl.Action.RESUME, 0)));
        assertTrue(e.getMessage().startsWith("state:"), e.getMessage());
        assertFalse(dispatcher.allows(new SweepControl("c", now, SweepControl.Action.CANCEL, 0)), "cancelling twice changes nothing");
        assertThrows(ProtocolException.class, () -> dispatcher.allows(new SweepControl("nope", now, SweepControl.Action.PAUSE, 0)));
    }
}
