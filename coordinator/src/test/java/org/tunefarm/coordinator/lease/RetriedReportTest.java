package org.tunefarm.coordinator.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.ScriptedAgent;
import org.tunefarm.coordinator.replica.ReplicaVerticle;
import org.tunefarm.coordinator.replica.Replication;
import org.tunefarm.coordinator.store.RecordLog;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.coordinator.table.TableService;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.SleepSpec;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Ack;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Pull;
import org.tunefarm.protocol.Register;
import org.tunefarm.protocol.Report;
import org.tunefarm.protocol.Work;
import org.tunefarm.table.TableEntry;

/**
 * A report refused with 503 because the second disk (another coordinator's replica) was not
 * reachable is durable on the leader's disk already; when the agent sends it again, it is
 * acknowledged as its own: the records reach the live table, count as the agent's, and are not
 * counted as repeats. The leader's farm verticle, both logs and the replica verticle are the real
 * ones, on one Vert.x instance; the second coordinator is its replica's event-bus address.
 */
class RetriedReportTest {
    static final String SPEC = """
            kernel: sleep
            shapes: [{unitUs: 100}]
            space: {a: [4, 5, 6], b: [11], mode: [fast]}
            strategy: {name: exhaustive, budget: 0}
            measure: {timeoutMs: 10000, finalists: 0}
            batchSize: 8
            """;
    static final DeviceProfile PROFILE = ScriptedAgent.profile("Retry CPU");

    @TempDir Path dir;
    final Vertx vertx = Vertx.vertx();
    final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach void close() throws Exception {
        await(vertx.close());
        for (AutoCloseable c : open) c.close();
    }

    static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    JsonObject ask(String address, Object body) throws Exception {
        return await(vertx.eventBus().<JsonObject>request(address, new JsonObject(Protocol.write(body)))).body();
    }

    static Measurement honest(Lease lease, Lease.Candidate c) {
        long now = System.currentTimeMillis();
        double ns = 1000.0 * SleepSpec.sleepMicros(lease.key(), c.params());
        return new Measurement(lease.sweepId(), lease.key(), c.index(), c.params(), Status.OK, Stats.of(new double[] {ns, ns * 1.01, ns * 1.02}, 1),
                0.0, SensorReading.NONE, SensorReading.NONE, "", "agent-1", PROFILE.deviceClass(), now, now + 1, 0, lease.round());
    }

    @Test void aReportRetriedAfterA503ReachesTheTableAndIsNotARepeat() throws Exception {
        RecordLog records = new RecordLog(dir.resolve("leader/records.jsonl"));
        RecordLog peerRecords = new RecordLog(dir.resolve("peer/records.jsonl"));
        open.add(records);
        open.add(peerRecords);
        SweepLog sweeps = new SweepLog(dir.resolve("leader/sweeps.jsonl"));
        SweepLog peerSweeps = new SweepLog(dir.resolve("peer/sweeps.jsonl"));
        String peer = await(vertx.deployVerticle(new ReplicaVerticle("peer", peerRecords, peerSweeps)));
        Replication replication = new Replication(vertx, "leader", () -> List.of("leader", "peer"), records, sweeps);
        await(vertx.deployVerticle(new FarmVerticle(records, sweeps, replication, 1_000)));

        await(vertx.eventBus().request(FarmVerticle.SUBMIT, new JsonObject(Protocol.write(SweepSpecReader.read(SPEC)))));
        ask(Protocol.REGISTER, new Register("agent-1", PROFILE, List.of("sleep")));
        Lease lease = Protocol.read(ask(Protocol.PULL, new Pull("agent-1")).encode(), Work.class).lease();
        assertNotNull(lease);
        Report report = new Report("agent-1", lease.leaseId(), lease.candidates().stream().map(c -> honest(lease, c)).toList(), true);

        await(vertx.undeploy(peer)); // the second disk is not reachable
        ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, () -> ask(Protocol.REPORT, report));
        assertEquals(503, assertInstanceOf(ReplyException.class, refused.getCause()).failureCode());
        assertEquals(lease.candidates().size(), records.count(), "durable on the leader's disk, not acknowledged");

        await(vertx.deployVerticle(new ReplicaVerticle("peer", peerRecords, peerSweeps))); // back
        Ack ack = Protocol.read(ask(Protocol.REPORT, report).encode(), Ack.class);
        assertTrue(ack.ok());
        assertEquals(lease.candidates().size(), ack.recorded(), "the retry's records are its own");
        assertEquals(lease.candidates().size(), peerRecords.count(), "and now on the second disk");
        long repeats = await(vertx.sharedData().getCounter(FarmVerticle.REPEATS_COUNTER).compose(c -> c.get()));
        assertEquals(0, repeats, "a retry is not a repeat");

        Map<String, String> table = await(vertx.sharedData().<String, String>getAsyncMap(TableService.MAP).compose(m -> m.entries()));
        assertEquals(1, table.size(), table.toString());
        TableEntry best = Protocol.JSON.readValue(table.values().iterator().next(), TableEntry.class);
        assertEquals(PROFILE.deviceClass(), best.deviceClass());
        assertEquals(SleepSpec.OPTIMUM, best.params(), "the fastest measured candidate is in the live table");
    }
}
