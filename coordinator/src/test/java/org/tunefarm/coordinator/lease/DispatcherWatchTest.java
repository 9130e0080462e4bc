package org.tunefarm.coordinator.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunefarm.coordinator.sweep.SweepRun;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.protocol.Heartbeat;
import org.tunefarm.protocol.Register;

/** What the dispatcher tells the watchers: heartbeats often enough to plot, and every lease it takes back. */
class DispatcherWatchTest {
    long now = 1_700_000_000_000L;
    final List<AgentInfo> published = new ArrayList<>();
    final List<String> expired = new ArrayList<>();
    final Dispatcher dispatcher = new Dispatcher(() -> now, DispatcherTest.HEARTBEAT_MS, new Dispatcher.Listener() {
        @Override public void agentChanged(AgentInfo agent) {
            published.add(agent);
        }

        @Override public void leaseExpired(String reason) {
            expired.add(reason);
        }
    });

    DispatcherWatchTest() {
        dispatcher.add(new SweepRun("sw1", SweepSpecReader.read(DispatcherTest.SPEC), now));
        dispatcher.register(new Register("a1", DispatcherTest.PROFILE, List.of("sleep")));
    }

    @Test void heartbeatsArePublishedAtMostEveryTwoSecondsWithTheirSensors() {
        published.clear();
        for (int i = 0; i < 10; i++) {
            now += 500;
            dispatcher.heartbeat(new Heartbeat("a1", null, new SensorReading(40.0 + i, 1800.0, null)));
        }
        // 5 s of heartbeats every 0.5 s: published at 0.5 s, 2.5 s and 4.5 s.
        assertEquals(3, published.size(), published.toString());
        AgentInfo last = published.get(published.size() - 1);
        assertEquals(48.0, last.sensors().temperatureC());
        assertEquals(now - 500, last.lastSeen());
    }

    @Test void leasesTakenBackAreToldWithTheirReason() {
        dispatcher.pull("a1");
        now += DispatcherTest.HEARTBEAT_MS * (Dispatcher.MISSED_HEARTBEATS + 1);
        dispatcher.tick();
        assertEquals(List.of(Dispatcher.EXPIRED_AGENT_LOST), expired, "a silent agent's lease");

        dispatcher.register(new Register("a2", DispatcherTest.PROFILE, List.of("sleep")));
        var lease = dispatcher.pull("a2").lease();
        for (long t = now; t <= lease.deadline(); t += DispatcherTest.HEARTBEAT_MS) {
            now = t;
            dispatcher.heartbeat(new Heartbeat("a2", lease.leaseId(), SensorReading.NONE));
        }
        now = lease.deadline() + 1;
        dispatcher.heartbeat(new Heartbeat("a2", lease.leaseId(), SensorReading.NONE));
        dispatcher.tick();
        assertEquals(List.of(Dispatcher.EXPIRED_AGENT_LOST, Dispatcher.EXPIRED_DEADLINE), expired, "an alive agent's overdue lease");
    }
}
