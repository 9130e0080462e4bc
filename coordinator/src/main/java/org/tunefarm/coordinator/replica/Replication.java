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
import java.util.logging.Logger;
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
    private static final Logger LOG = Logger.getLogger(Replication.class.getName());
    static final long PEER_TIMEOUT_MS = 5_000;

    private final Vertx vertx;
    private final String self;
    private final Supplier<List<String>> nodes;
    private final RecordStore records;
    private final SweepLog sweeps;

    /** @param nodes the cluster's live node ids, this one included */
    public Replication(Vertx vertx, String self, Supplier<List<String>> nodes, RecordStore records, SweepLog sweeps) {
        this.vertx = vertx;
        this.self = self;
        this.nodes = nodes;
        this.records = records;
        this.sweeps = sweeps;
    }

    private List<String> peers() {
        List<String> out = new ArrayList<>(nodes.get());
        out.remove(self);
        return out;
    }

    /**
     * Makes measurements durable here and on a peer.
     *
     * @return the ones that were new to this coordinator
     */
    public Future<List<Measurement>> append(List<Measurement> ms) {
        return vertx.executeBlocking(() -> records.append(ms)).compose(fresh -> {
            JsonArray body = new JsonArray();
            for (Measurement m : ms) body.add(new JsonObject(Protocol.write(m)));
            return toOnePeer(peer -> ReplicaVerticle.recordsAddress(peer), new JsonObject().put("records", body)).map(fresh);
        });
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
     * disk or a healed partition).
     *
     * @return the records that were new here
     */
    public Future<List<Measurement>> catchUp() {
        List<Future<List<Measurement>>> all = new ArrayList<>();
        for (String p : peers()) all.add(readFrom(p, 0, new ArrayList<>()));
        return Future.join(all).transform(ar -> {
            List<Measurement> fresh = new ArrayList<>();
            for (Future<List<Measurement>> f : all) {
                if (f.succeeded()) fresh.addAll(f.result());
                else LOG.warning("catching up from a peer failed: " + f.cause().getMessage());
            }
            return Future.succeededFuture(fresh);
        });
    }

    private Future<List<Measurement>> readFrom(String peer, int from, List<Measurement> fresh) {
        return vertx.eventBus().<JsonObject>request(ReplicaVerticle.readAddress(peer), new JsonObject().put("from", from),
                new DeliveryOptions().setSendTimeout(30_000)).compose(reply -> {
            JsonObject page = reply.body();
            List<Measurement> ms = ReplicaVerticle.decode(page.getJsonArray("records"));
            JsonArray sw = page.getJsonArray("sweeps");
            return vertx.executeBlocking(() -> {
                for (int i = 0; i < sw.size(); i++) sweeps.appendIfAbsent(Protocol.JSON.readValue(sw.getJsonObject(i).encode(), SweepLog.Entry.class));
                JsonArray cs = page.getJsonArray("controls", new JsonArray());
                for (int i = 0; i < cs.size(); i++) sweeps.appendIfAbsent(Protocol.JSON.readValue(cs.getJsonObject(i).encode(), SweepControl.class));
                fresh.addAll(records.append(ms));
                return null;
            }).compose(v -> {
                ReplicaVerticle.announce(vertx, fresh);
                return Future.succeededFuture();
            }).compose(v -> from + ms.size() < page.getInteger("total") && !ms.isEmpty()
                    ? readFrom(peer, from + ms.size(), fresh)
                    : Future.succeededFuture(fresh));
        });
    }
}
