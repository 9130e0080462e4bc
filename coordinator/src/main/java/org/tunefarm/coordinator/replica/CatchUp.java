package org.tunefarm.coordinator.replica;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.tunefarm.coordinator.store.RecordLines;
import org.tunefarm.coordinator.store.RecordStore;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.protocol.Protocol;

/**
 * Copies into this coordinator's logs what the other coordinators kept and it lacks: at start,
 * before taking the lead, when a member joins or returns (a restart, a healed partition), and every
 * few seconds in case a copy was missed. It is incremental: for each peer it remembers the byte
 * offset in that peer's log up to which it has read, and asks only for what follows, a page at a
 * time; a page that times out is asked again. Records are idempotent, so reading one twice is
 * harmless, and the two halves of a healed partition each read the other's records.
 */
public final class CatchUp {
    private static final Logger LOG = Logger.getLogger(CatchUp.class.getName());
    static final long PAGE_TIMEOUT_MS = 10_000;
    static final int ATTEMPTS = 3;
    /** How often every peer is asked for what it appended since: cheap, since only new bytes are read. */
    public static final long EVERY_MS = 2_000;

    private final Vertx vertx;
    private final String self;
    private final Supplier<List<String>> nodes;
    private final RecordStore records;
    private final SweepLog sweeps;
    /** Per peer node: the offset in its record log up to which this coordinator has read. */
    private final Map<String, Long> cursors = new ConcurrentHashMap<>();
    private final Map<String, Future<Long>> running = new ConcurrentHashMap<>();
    /** Peers whose log this coordinator has read to the end since they (re)joined. */
    private final Set<String> synced = ConcurrentHashMap.newKeySet();
    private final Map<String, String> failures = new ConcurrentHashMap<>();

    /** @param nodes the cluster's live node ids, this one included */
    public CatchUp(Vertx vertx, String self, Supplier<List<String>> nodes, RecordStore records, SweepLog sweeps) {
        this.vertx = vertx;
        this.self = self;
        this.nodes = nodes;
        this.records = records;
        this.sweeps = sweeps;
    }

    List<String> peers() {
        List<String> out = new ArrayList<>(nodes.get());
        out.remove(self);
        return out;
    }

    /** A member joined or came back: until its log is read, this coordinator is not caught up with it. */
    public void joined(String peer) {
        if (peer == null || peer.equals(self)) return;
        synced.remove(peer);
        from(peer);
    }

    /**
     * Reads from every peer; fails when one of them could not be read to the end.
     *
     * @return how many records were new here (counted, not kept: a copy of a long history is millions)
     */
    public Future<Long> fromAll() {
        List<Future<Long>> all = new ArrayList<>();
        for (String p : peers()) all.add(from(p));
        return Future.join(all).transform(ar -> {
            long fresh = 0;
            List<String> failed = new ArrayList<>();
            for (Future<Long> f : all) {
                if (f.succeeded()) fresh += f.result();
                else failed.add(f.cause().getMessage());
            }
            return failed.isEmpty() ? Future.succeededFuture(fresh)
                    : Future.failedFuture("could not catch up from " + failed.size() + " coordinator(s): " + failed.get(0));
        });
    }

    /** Reads what the peer appended since the last read; one round per peer at a time. @return how many records were new here */
    public Future<Long> from(String peer) {
        Promise<Long> done = Promise.promise();
        Future<Long> already = running.putIfAbsent(peer, done.future());
        if (already != null) return already;
        readFrom(peer, true, 0).onComplete(ar -> {
            running.remove(peer);
            if (ar.succeeded()) {
                synced.add(peer);
                if (failures.remove(peer) != null) LOG.info("caught up again from coordinator " + peer);
                done.complete(ar.result());
            } else {
                synced.remove(peer);
                String why = String.valueOf(ar.cause().getMessage());
                if (!why.equals(failures.put(peer, why))) LOG.info("not caught up from coordinator " + peer + " yet: " + why);
                done.fail(ar.cause());
            }
        });
        return done.future();
    }

    /** Whether every live peer's log has been read to its end since it (re)joined. */
    public boolean caughtUp() {
        for (String p : peers()) if (!synced.contains(p)) return false;
        return true;
    }

    /** What /api/health shows of the copies. */
    public JsonObject health() {
        JsonObject h = new JsonObject().put("caughtUp", caughtUp());
        Map<String, String> open = new TreeMap<>(failures);
        open.keySet().retainAll(peers());
        if (!open.isEmpty()) h.put("catchUpFailures", new JsonObject(new TreeMap<>(open)));
        return h;
    }

    private Future<Long> readFrom(String peer, boolean withSweeps, long fresh) {
        long from = cursors.getOrDefault(peer, 0L);
        JsonObject ask = new JsonObject().put("from", from).put("max", ReplicaVerticle.PAGE).put("sweeps", withSweeps);
        return page(peer, ask, 1).compose(reply -> {
            long end = reply.getLong("end");
            if (end < from) {
                // The peer's log is shorter than what was read from it: it is not the same log. Start over.
                cursors.put(peer, 0L);
                return readFrom(peer, withSweeps, fresh);
            }
            JsonArray lines = reply.getJsonArray("lines");
            JsonArray sw = reply.getJsonArray("sweeps", new JsonArray());
            return vertx.executeBlocking(() -> {
                List<SweepLog.Entry> entries = new ArrayList<>();
                for (int i = 0; i < sw.size(); i++) entries.add(Protocol.JSON.readValue(sw.getJsonObject(i).encode(), SweepLog.Entry.class));
                JsonArray cs = reply.getJsonArray("controls", new JsonArray());
                List<SweepControl> controls = new ArrayList<>();
                for (int i = 0; i < cs.size(); i++) controls.add(Protocol.JSON.readValue(cs.getJsonObject(i).encode(), SweepControl.class));
                sweeps.appendAllIfAbsent(entries, controls);
                List<String> text = new ArrayList<>(lines.size());
                for (int i = 0; i < lines.size(); i++) text.add(lines.getString(i));
                RecordLines page = RecordLines.parse(text);
                return records.append(page.records(), page.lines());
            }).compose(copied -> {
                ReplicaVerticle.announce(vertx, copied);
                long now = fresh + copied.size();
                long next = reply.getLong("next");
                cursors.put(peer, next);
                return next < end && next > from ? readFrom(peer, false, now) : Future.succeededFuture(now);
            });
        });
    }

    /** Asks for one page, again after a pause when the peer does not answer in time. */
    private Future<JsonObject> page(String peer, JsonObject ask, int attempt) {
        return vertx.eventBus().<JsonObject>request(ReplicaVerticle.readAddress(peer), ask, new DeliveryOptions().setSendTimeout(PAGE_TIMEOUT_MS))
                .map(m -> m.body())
                .recover(e -> {
                    if (attempt >= ATTEMPTS || !peers().contains(peer)) return Future.failedFuture(e);
                    Promise<JsonObject> later = Promise.promise();
                    vertx.setTimer(500L * attempt, t -> page(peer, ask, attempt + 1).onComplete(later));
                    return later.future();
                });
    }
}
