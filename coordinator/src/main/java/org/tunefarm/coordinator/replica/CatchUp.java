package org.tunefarm.coordinator.replica;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
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
    /**
     * Per peer node: an offset at or before its cursor where both logs begin a line (where their
     * line sums, or their bytes, last agreed). A cursor at the end of what the peer had is often
     * inside a line of this log (its copies arrived in another order, or are still on their way
     * here), so a round compares from here instead.
     */
    private final Map<String, Long> anchors = new ConcurrentHashMap<>();
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

    /** This coordinator's log holds the peer's log up to {@code offset} already ({@link LogSeed}): reading goes on from there. */
    public void resumeAt(String peer, long offset) {
        cursors.put(peer, offset);
        anchors.put(peer, offset); // the same bytes up to it
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
        if (!cursors.containsKey(peer) && records.bytes().length() > 0) {
            // A first read of a peer whose log may begin as this one does (the leader's replica,
            // a copy made at start, a coordinator back from a restart): skip what both hold.
            return sharedPrefix(peer).compose(shared -> {
                cursors.putIfAbsent(peer, shared);
                anchors.put(peer, shared);
                return readFrom(peer, withSweeps, fresh);
            });
        }
        long from = cursors.getOrDefault(peer, 0L);
        // What the peer appended since is most often what this log appended too (the leader and
        // the replica it copies to), if not always in the same order: compare line sums first,
        // and read (and parse) only from where they last agree, not every record a second time
        // each round. A comparison that fails costs only the shortcut: the round reads from the cursor.
        Future<Long> start = from < records.bytes().length() ? sharedLines(peer, from).otherwise(from) : Future.succeededFuture(from);
        return start.compose(at -> {
            cursors.put(peer, at);
            Promise<Long> done = Promise.promise();
            copy(peer, at, withSweeps, page(peer, ask(at, withSweeps), 1), fresh, done);
            return done.future();
        });
    }

    /**
     * Ranges of this many bytes or so are compared in a round's new bytes: what differs is read
     * from the last bound where both sides' lines agree, so a round re-reads about this much that
     * it holds; and at most this many bounds at a time (a round after a long absence compares
     * the first 64 MB, and reads the rest).
     */
    static final long TAIL_STEP = 256L << 10;
    static final int TAIL_BOUNDS = 256;

    /** This log's line starts from {@code start} and its line sums from there up to each. */
    private record LineSums(long start, long[] bounds, Long[] sums) {}

    /**
     * The last of this log's line starts from {@code from} up to which the peer's log, from the
     * same offset, holds the same lines (its {@link ReplicaVerticle#LINE_SUMS line sums} agree);
     * {@code from} where none does. Where {@code from} is inside one of this log's lines, the sums
     * run from the peer's {@link #anchors anchor} instead: lines that agree from there include those
     * from the cursor. A peer that does not answer sums is read from {@code from}.
     */
    private Future<Long> sharedLines(String peer, long from) {
        // 0 begins a line in both logs.
        long anchor = anchors.getOrDefault(peer, 0L);
        return vertx.executeBlocking(() -> {
            long start = from;
            long[] bounds = records.bytes().lineBounds(from, TAIL_STEP, TAIL_BOUNDS);
            // The cursor is inside one of this log's lines: from the anchor, if it is near enough to reach past the cursor.
            if (bounds.length == 0 && anchor < from && from - anchor < TAIL_STEP * TAIL_BOUNDS / 2) {
                start = anchor;
                bounds = records.bytes().lineBounds(anchor, TAIL_STEP, TAIL_BOUNDS);
            }
            return new LineSums(start, bounds, records.bytes().lineSums(start, bounds));
        }).compose(mine -> {
            long[] bounds = mine.bounds();
            Long[] sums = mine.sums();
            if (bounds.length == 0) return Future.succeededFuture(from);
            JsonArray asked = new JsonArray();
            for (long b : bounds) asked.add(b);
            return vertx.eventBus().<JsonObject>request(ReplicaVerticle.readAddress(peer), new JsonObject().put("from", mine.start()).put(ReplicaVerticle.LINE_SUMS, asked),
                    new DeliveryOptions().setSendTimeout(PAGE_TIMEOUT_MS)).map(reply -> {
                JsonArray theirs = reply.body().getJsonArray(ReplicaVerticle.LINE_SUMS);
                long reached = -1;
                for (int i = 0; theirs != null && i < Math.min(theirs.size(), sums.length); i++) {
                    if (sums[i] != null && sums[i].equals(theirs.getLong(i))) reached = bounds[i];
                }
                // Lines that agree end before the cursor: the round still reads from the cursor.
                if (reached < from) return from;
                anchors.put(peer, reached);
                return reached;
            });
        });
    }

    /** Ranges of about this many bytes are compared at a time: a long history's prefix is some hundred of them. */
    static final long PREFIX_STEP = 64L << 20;
    /** Ranges asked for in one request, so one answer reads a gigabyte at most. */
    private static final int PREFIX_BATCH = 16;

    /**
     * How far, from its start, the peer's log holds the same bytes as this one's: the records there
     * are here already, and reading them to find that out was, for a peer that copied this log,
     * all of this log again. Both sides digest their own bytes between the same line starts (this
     * log's), a batch at a time, until one differs or either log ends. A peer that does not answer
     * digests (an older version) shares nothing, and is read from the start as before; one that
     * cannot be asked yet fails the read, which the next round tries again.
     */
    private Future<Long> sharedPrefix(String peer) {
        return vertx.executeBlocking(() -> records.bytes().lineBounds(0, PREFIX_STEP, Integer.MAX_VALUE)).compose(bounds -> sharedPrefix(peer, bounds, 0, 0L));
    }

    private Future<Long> sharedPrefix(String peer, long[] bounds, int at, long shared) {
        if (at >= bounds.length) return Future.succeededFuture(shared);
        long[] batch = java.util.Arrays.copyOfRange(bounds, at, Math.min(bounds.length, at + PREFIX_BATCH));
        JsonArray asked = new JsonArray();
        for (long b : batch) asked.add(b);
        // The peer first: one that cannot answer yet (still starting) costs this log no read.
        return vertx.eventBus().<JsonObject>request(ReplicaVerticle.readAddress(peer),
                new JsonObject().put("from", shared).put(ReplicaVerticle.DIGESTS, asked), new DeliveryOptions().setSendTimeout(PAGE_TIMEOUT_MS)).compose(reply -> {
            JsonArray t = reply.body().getJsonArray(ReplicaVerticle.DIGESTS);
            if (t == null) {
                LOG.info("reading coordinator " + peer + "'s log from " + shared + ": it does not compare digests (an older version)");
                return Future.succeededFuture(shared);
            }
            long[] theirs = new long[t.size()];
            for (int i = 0; i < theirs.length; i++) theirs[i] = t.getLong(i);
            return vertx.executeBlocking(() -> records.bytes().digests(shared, java.util.Arrays.copyOf(batch, theirs.length))).compose(mine -> {
                int same = 0;
                while (same < mine.length && mine[same] == theirs[same]) same++;
                long reached = same == 0 ? shared : batch[same - 1];
                return same < batch.length ? Future.succeededFuture(reached) : sharedPrefix(peer, bounds, at + batch.length, reached);
            });
        });
    }

    /** A read of the page at {@code from}: with the peer's sweeps as JSON, or else as the log's lines in one buffer. */
    private static JsonObject ask(long from, boolean withSweeps) {
        JsonObject ask = new JsonObject().put("from", from).put("max", ReplicaVerticle.PAGE).put("sweeps", withSweeps);
        if (!withSweeps) ask.put(ReplicaVerticle.FORMAT, ReplicaVerticle.LINES_FORMAT);
        return ask;
    }

    /**
     * Copies the page being fetched from {@code from}, and while it is parsed and made durable here
     * asks for the one after it, so the peer reads and sends the next page as this one is copied.
     * The cursor moves past a page only once its records are durable here, one page after another.
     *
     * <p>Why callbacks that end in {@code done} rather than a chain of composed futures: each
     * composed step held its page until the whole copy ended, so a long history's copy kept every
     * page it had read (a million records' copy ran out of a 1 GB heap).
     */
    private void copy(String peer, long from, boolean withSweeps, Future<Page> fetching, long fresh, Promise<Long> done) {
        fetching.onComplete(fetched -> {
            if (fetched.failed()) {
                done.fail(fetched.cause());
                return;
            }
            Page p = fetched.result();
            if (p.end() < from) {
                // The peer's log is shorter than what was read from it: it is not the same log. Start over.
                cursors.put(peer, 0L);
                anchors.remove(peer);
                readFrom(peer, withSweeps, fresh).onComplete(done);
                return;
            }
            long next = p.next();
            Future<Page> following = next < p.end() && next > from ? page(peer, ask(next, false), 1) : null;
            vertx.executeBlocking(() -> {
                SweepCopy.of(p.sweeps(), p.controls()).appendTo(sweeps);
                RecordLines page = RecordLines.parse(p.lines());
                return records.append(page.records(), page.lines());
            }).onComplete(appended -> {
                if (appended.failed()) {
                    done.fail(appended.cause());
                    return;
                }
                ReplicaVerticle.announce(vertx, appended.result());
                long now = fresh + appended.result().size();
                cursors.put(peer, next);
                if (following != null) copy(peer, next, false, following, now, done);
                else done.complete(now);
            });
        });
    }

    /**
     * A page as it arrived: the log's lines in one buffer (with where the next page starts and the
     * log's end in the headers), or a JSON object from a read that asked for the sweeps or from a
     * peer that predates the buffer.
     */
    private record Page(io.vertx.core.buffer.Buffer text, JsonArray json, long next, long end, JsonArray sweeps, JsonArray controls) {
        static Page of(Message<Object> m) {
            if (m.body() instanceof io.vertx.core.buffer.Buffer b) {
                return new Page(b, null, Long.parseLong(m.headers().get(ReplicaVerticle.NEXT)), Long.parseLong(m.headers().get(ReplicaVerticle.END)),
                        new JsonArray(), new JsonArray());
            }
            JsonObject reply = (JsonObject) m.body();
            return new Page(null, reply.getJsonArray("lines"), reply.getLong("next"), reply.getLong("end"), reply.getJsonArray("sweeps", new JsonArray()),
                    reply.getJsonArray("controls", new JsonArray()));
        }

        /** The records' lines; split here, off the event loop. */
        List<String> lines() {
            if (text != null) return RecordLines.split(text.getBytes());
            List<String> out = new ArrayList<>(json.size());
            for (int i = 0; i < json.size(); i++) out.add(json.getString(i));
            return out;
        }
    }

    /** Asks for one page, again after a pause when the peer does not answer in time. */
    private Future<Page> page(String peer, JsonObject ask, int attempt) {
        return vertx.eventBus().<Object>request(ReplicaVerticle.readAddress(peer), ask, new DeliveryOptions().setSendTimeout(PAGE_TIMEOUT_MS))
                .map(Page::of)
                .recover(e -> {
                    if (attempt >= ATTEMPTS || !peers().contains(peer)) return Future.failedFuture(e);
                    Promise<Page> later = Promise.promise();
                    vertx.setTimer(500L * attempt, t -> page(peer, ask, attempt + 1).onComplete(later));
                    return later.future();
                });
    }
}
