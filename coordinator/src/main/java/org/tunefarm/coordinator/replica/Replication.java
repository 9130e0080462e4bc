package org.tunefarm.coordinator.replica;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.tunefarm.coordinator.store.RecordStore;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * The sending side of the copy every coordinator keeps. A write is durable when it is fsynced
 * here and, if any other coordinator is up, on at least one of them: that is what an agent's
 * acknowledgement promises, so losing one coordinator's disk loses nothing.
 */
public final class Replication {
    static final long PEER_TIMEOUT_MS = 5_000;

    private final Vertx vertx;
    private final String self;
    private final Supplier<List<String>> nodes;
    private final RecordStore records;
    private final SweepLog sweeps;
    private final CatchUp catchUp;

    /**
     * How a copy carries its records: each record's JSON text, written once and kept as both logs'
     * line ({@link #TEXT}, what a coordinator sends), or a JSON object per record with each log
     * writing its own line ({@link #OBJECTS}, what coordinators sent before, which replicas still
     * read). {@code bench ingest --compare-copy} switches between them to measure the difference.
     */
    public enum CopyFormat { TEXT, OBJECTS }

    private volatile CopyFormat copyFormat = CopyFormat.TEXT;

    /** @param nodes the cluster's live node ids, this one included */
    public Replication(Vertx vertx, String self, Supplier<List<String>> nodes, RecordStore records, SweepLog sweeps) {
        this.vertx = vertx;
        this.self = self;
        this.nodes = nodes;
        this.records = records;
        this.sweeps = sweeps;
        this.catchUp = new CatchUp(vertx, self, nodes, records, sweeps);
    }

    private List<String> peers() {
        List<String> out = new ArrayList<>(nodes.get());
        out.remove(self);
        return out;
    }

    /**
     * Makes measurements durable here and on a peer: the copy is sent once this log's fsync covers
     * them, and the answer waits for the peer's reply, which it sends once its own fsync does. Call on
     * a Vert.x context (the farm verticle's): this log keeps the order of the calls, and, since its
     * answers come back to that context in the same order, so does the peer's.
     *
     * @return the ones that were new to this coordinator; failed with {@link NotReplicated} when
     *         they are durable here only
     */
    public Future<List<Measurement>> append(List<Measurement> ms) {
        if (copyFormat == CopyFormat.OBJECTS) return appendAsObjects(ms);
        // Each record's JSON text, written once: it is this log's line and the copy's, so no JSON
        // tree is built to be encoded again on the wire, and the replica parses each record once.
        List<String> json = new ArrayList<>(ms.size());
        for (Measurement m : ms) json.add(Protocol.write(m));
        return Future.fromCompletionStage(records.appendAsync(ms, json), vertx.getOrCreateContext()).compose(fresh -> {
            JsonObject copy = new JsonObject().put(ReplicaVerticle.LINES, new JsonArray(new ArrayList<Object>(json)));
            return toOnePeer(peer -> ReplicaVerticle.recordsAddress(peer), copy).map(fresh)
                    .recover(t -> Future.failedFuture(new NotReplicated(fresh, t)));
        });
    }

    /** {@link #append} as coordinators did before {@link CopyFormat#TEXT}: the baseline of {@code bench ingest --compare-copy}. */
    private Future<List<Measurement>> appendAsObjects(List<Measurement> ms) {
        return Future.fromCompletionStage(records.appendAsync(ms), vertx.getOrCreateContext()).compose(fresh -> {
            JsonArray body = new JsonArray();
            for (Measurement m : ms) body.add(new JsonObject(Protocol.write(m)));
            return toOnePeer(peer -> ReplicaVerticle.recordsAddress(peer), new JsonObject().put(ReplicaVerticle.OBJECTS, body)).map(fresh)
                    .recover(t -> Future.failedFuture(new NotReplicated(fresh, t)));
        });
    }

    /** How copies carry records from now on; coordinators keep {@link CopyFormat#TEXT}. */
    public void copyAs(CopyFormat format) {
        copyFormat = format;
    }

    /** Makes an accepted sweep durable here and on a peer. */
    public Future<Void> append(SweepLog.Entry e) {
        return vertx.executeBlocking(() -> {
            sweeps.appendIfAbsent(e);
            return null;
        }).compose(v -> toOnePeer(ReplicaVerticle::sweepsAddress, new JsonObject(Protocol.write(e))));
    }

    /** Makes an operator's change to a sweep durable here and on a peer. */
    public Future<Void> append(SweepControl c) {
        return vertx.executeBlocking(() -> {
            sweeps.appendIfAbsent(c);
            return null;
        }).compose(v -> toOnePeer(ReplicaVerticle::sweepsAddress, new JsonObject().put(ReplicaVerticle.CONTROL, new JsonObject(Protocol.write(c)))));
    }

    private interface AddressOf {
        String of(String peer);
    }

    /** Sends to every peer; succeeds when one has it durable (or when there is no peer). */
    private Future<Void> toOnePeer(AddressOf address, JsonObject body) {
        List<String> peers = peers();
        if (peers.isEmpty()) return Future.succeededFuture();
        Promise<Void> one = Promise.promise();
        AtomicInteger failures = new AtomicInteger();
        DeliveryOptions opts = new DeliveryOptions().setSendTimeout(PEER_TIMEOUT_MS);
        for (String p : peers) {
            vertx.eventBus().request(address.of(p), body, opts).onComplete(ar -> {
                if (ar.succeeded()) {
                    one.tryComplete();
                } else if (failures.incrementAndGet() == peers.size()) {
                    one.tryFail("no other coordinator made the write durable: " + ar.cause().getMessage());
                }
            });
        }
        return one.future();
    }

    /**
     * Reads from every peer the records and sweeps this coordinator lacks (after a restart, a lost
     * disk or a healed partition); fails when a peer could not be read to the end.
     *
     * @return how many records were new here
     */
    public Future<Long> catchUp() {
        return catchUp.fromAll();
    }

    /** Whether this coordinator has read every live peer's log to its end since it (re)joined. */
    public boolean caughtUp() {
        return catchUp.caughtUp();
    }

    public CatchUp copies() {
        return catchUp;
    }
}
