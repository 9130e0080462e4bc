package org.tunefarm.coordinator.replica;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.tunefarm.coordinator.store.LogBytes;
import org.tunefarm.coordinator.store.MeasurementReader;
import org.tunefarm.coordinator.store.RecordLines;
import org.tunefarm.coordinator.store.RecordPage;
import org.tunefarm.coordinator.store.RecordStore;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * Every coordinator keeps a full copy of the records and the sweeps. This verticle is the
 * receiving side of that copy: the dispatching coordinator sends it new records and sweeps, which
 * it makes durable before replying, and other coordinators read what they lack from it by byte
 * offset, page by page ({@link CatchUp}). Appends are idempotent, so sending twice is harmless.
 */
public final class ReplicaVerticle extends VerticleBase {
    private static final Logger LOG = Logger.getLogger(ReplicaVerticle.class.getName());
    static final int PAGE = 2000;

    private final String nodeId;
    private final RecordStore records;
    private final SweepLog sweeps;

    public ReplicaVerticle(String nodeId, RecordStore records, SweepLog sweeps) {
        this.nodeId = nodeId;
        this.records = records;
        this.sweeps = sweeps;
    }

    /**
     * Local address where records that reached this node's log by copy (not through its own
     * dispatch) are announced, so a leader's searches and table learn of them too.
     */
    public static final String COPIED = "tunefarm.local.copied";

    /** Where a node takes records to keep. */
    public static String recordsAddress(String nodeId) {
        return "tunefarm.replica." + nodeId + ".records";
    }

    public static String sweepsAddress(String nodeId) {
        return "tunefarm.replica." + nodeId + ".sweeps";
    }

    /** Where a node answers "your records from offset n". */
    public static String readAddress(String nodeId) {
        return "tunefarm.replica." + nodeId + ".read";
    }

    @Override public Future<?> start() {
        var bus = vertx.eventBus();
        bus.<JsonObject>consumer(recordsAddress(nodeId), this::onRecords);
        bus.<JsonObject>consumer(sweepsAddress(nodeId), this::onSweep);
        bus.<JsonObject>consumer(readAddress(nodeId), this::onRead);
        return Future.succeededFuture();
    }

    private void onRecords(Message<JsonObject> m) {
        RecordLines copy;
        try {
            copy = decode(m.body());
        } catch (RuntimeException e) {
            m.fail(400, LINES + ": " + e.getMessage());
            return;
        }
        // Queued in the order the copies arrive, which is the leader's log order; one fsync covers
        // every copy that arrived meanwhile, and each is answered only after it.
        Future.fromCompletionStage(records.appendAsync(copy.records(), copy.lines()), context).onComplete(ar -> {
            if (ar.failed()) {
                LOG.log(Level.SEVERE, "replica append failed", ar.cause());
                m.fail(500, "replica append failed: " + ar.cause().getMessage());
            } else {
                announce(vertx, ar.result());
                m.reply(new JsonObject().put("stored", ar.result().size()));
            }
        });
    }

    /** Key of a sweep-log copy that carries an operator's change rather than a sweep. */
    static final String CONTROL = "control";

    private void onSweep(Message<JsonObject> m) {
        vertx.executeBlocking(() -> {
            if (m.body().containsKey(CONTROL)) {
                SweepControl c = Protocol.JSON.readValue(m.body().getJsonObject(CONTROL).encode(), SweepControl.class);
                sweeps.appendIfAbsent(c);
                return c.sweepId();
            }
            SweepLog.Entry e = Protocol.JSON.readValue(m.body().encode(), SweepLog.Entry.class);
            sweeps.appendIfAbsent(e);
            return e.id();
        }).onComplete(ar -> {
            if (ar.failed()) m.fail(500, "replica sweep append failed: " + ar.cause().getMessage());
            else m.reply(new JsonObject().put("id", ar.result()));
        });
    }

    /** Key of a read that asks for the page as the log's own lines in one buffer ({@link #LINES_FORMAT}). */
    static final String FORMAT = "format";
    /**
     * A page as a buffer of the log's lines, each ending in a newline, with {@code next} and {@code end} in
     * the reply's headers: a page as JSON escaped every quote of every line on the way out and
     * unescaped it on the way in. A coordinator that predates it answers JSON, which the reader takes too.
     */
    static final String LINES_FORMAT = "lines";
    /** Headers of a page in {@link #LINES_FORMAT}: where the next page starts, and the log's durable length. */
    static final String NEXT = "next";
    static final String END = "end";

    private record LinesPage(io.vertx.core.buffer.Buffer lines, long next, long end) {}

    /** Key of a read that asks, instead of records, for the digests of this log's ranges between these bounds ({@link LogBytes#digests}). */
    static final String DIGESTS = "digests";
    /** Key of a read that asks for the line sums up to each of the given offsets ({@link CatchUp}'s later rounds). */
    static final String LINE_SUMS = "lineSums";

    /**
     * Answers the records that start at byte {@code from} of this node's log (at most {@code max}),
     * with where the next page starts and, when asked, all its sweeps (then always as JSON). Only
     * that part of the log is read.
     */
    private void onRead(Message<JsonObject> m) {
        if (m.body().containsKey(DIGESTS) || m.body().containsKey(LINE_SUMS)) {
            onDigests(m);
            return;
        }
        long from;
        int max;
        try {
            from = m.body().getLong("from", 0L);
            max = Math.max(1, Math.min(PAGE, m.body().getInteger("max", PAGE)));
        } catch (ClassCastException e) {
            m.fail(400, "from, max: must be numbers");
            return;
        }
        boolean withSweeps = m.body().getBoolean("sweeps", false);
        if (!withSweeps && LINES_FORMAT.equals(m.body().getValue(FORMAT))) {
            vertx.executeBlocking(() -> {
                RecordPage page = records.read(from, max);
                io.vertx.core.buffer.Buffer lines = io.vertx.core.buffer.Buffer.buffer(page.lines().size() * 800);
                for (String line : page.lines()) lines.appendString(line).appendByte((byte) '\n');
                return new LinesPage(lines, page.next(), page.end());
            }).onComplete(ar -> {
                if (ar.failed()) m.fail(500, ar.cause().getMessage());
                else m.reply(ar.result().lines(), new io.vertx.core.eventbus.DeliveryOptions().addHeader(NEXT, Long.toString(ar.result().next()))
                        .addHeader(END, Long.toString(ar.result().end())));
            });
            return;
        }
        vertx.executeBlocking(() -> {
            RecordPage page = records.read(from, max);
            // The log's own lines, unparsed: the copying coordinator parses each once.
            JsonObject reply = new JsonObject().put("lines", new JsonArray(new ArrayList<>(page.lines()))).put("next", page.next()).put("end", page.end());
            if (withSweeps) {
                JsonArray sw = new JsonArray();
                for (SweepLog.Entry e : sweeps.read()) sw.add(new JsonObject(Protocol.write(e)));
                reply.put("sweeps", sw);
                JsonArray cs = new JsonArray();
                for (SweepControl c : sweeps.controls()) cs.add(new JsonObject(Protocol.write(c)));
                reply.put("controls", cs);
            }
            return reply;
        }).onComplete(ar -> {
            if (ar.failed()) m.fail(500, ar.cause().getMessage());
            else m.reply(ar.result());
        });
    }

    /**
     * Answers {@code {from, digests: [bounds]}} with {@code {digests: [...]}}, this log's digest of
     * each range as far as it reaches, and {@code {from, lineSums: [bounds]}} with {@code {lineSums:
     * [...]}}, its {@link org.tunefarm.coordinator.store.LogBytes#lineSums line sums}.
     */
    private void onDigests(Message<JsonObject> m) {
        long[] bounds;
        long from;
        boolean sums = m.body().containsKey(LINE_SUMS);
        String key = sums ? LINE_SUMS : DIGESTS;
        try {
            from = m.body().getLong("from", 0L);
            if (from < 0) throw new IllegalArgumentException("from must not be negative, got " + from);
            JsonArray a = m.body().getJsonArray(key);
            bounds = new long[a.size()];
            for (int i = 0; i < bounds.length; i++) {
                bounds[i] = a.getLong(i);
                if (bounds[i] < (i == 0 ? from : bounds[i - 1])) throw new IllegalArgumentException("bounds must not decrease, " + bounds[i] + " at " + i);
            }
        } catch (ClassCastException | NullPointerException | IllegalArgumentException e) {
            m.fail(400, "from, " + key + ": a start and a list of increasing byte offsets (" + e.getMessage() + ")");
            return;
        }
        vertx.executeBlocking(() -> {
            JsonArray out = new JsonArray();
            if (sums) {
                for (Long x : records.bytes().lineSums(from, bounds)) out.add(x);
            } else {
                for (long x : records.bytes().digests(from, bounds)) out.add(x);
            }
            return new JsonObject().put(key, out);
        }).onComplete(ar -> {
            if (ar.failed()) m.fail(500, ar.cause().getMessage());
            else m.reply(ar.result());
        });
    }

    /**
     * Key in the local map {@link #COPIED} that is present while this node's leader listens there;
     * a follower then spends nothing on announcing what it copies (a catch-up copies millions).
     */
    public static final String LISTENING = "listening";

    /** Tells this node's leader, if it is one, of records that reached its log by copy: {@code {lines: [...]}}, one record's JSON each. */
    static void announce(io.vertx.core.Vertx vertx, List<Measurement> fresh) {
        if (fresh.isEmpty() || !vertx.sharedData().getLocalMap(COPIED).containsKey(LISTENING)) return;
        JsonArray a = new JsonArray();
        for (Measurement x : fresh) a.add(Protocol.write(x));
        vertx.eventBus().publish(COPIED, new JsonObject().put("lines", a), new io.vertx.core.eventbus.DeliveryOptions().setLocalOnly(true));
    }

    /** Key of a copy's records: each record's JSON text, as in the log. */
    static final String LINES = "lines";
    /** Key of a copy's records as JSON objects, as coordinators before {@link #LINES} send them (a rolling upgrade). */
    static final String OBJECTS = "records";

    /**
     * A copy's records, in order, each parsed once from its text, which becomes its line here too
     * unless it holds a line break (then, or from an older coordinator's objects, it is written anew).
     */
    static RecordLines decode(JsonObject copy) {
        JsonArray lines = copy.getJsonArray(LINES);
        JsonArray a = lines != null ? lines : copy.getJsonArray(OBJECTS);
        if (a == null) throw new IllegalArgumentException("no " + LINES + " in the copy");
        List<Measurement> out = new ArrayList<>(a.size());
        List<String> json = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
            try {
                String text = lines != null ? a.getString(i) : a.getJsonObject(i).encode();
                Measurement m = MeasurementReader.read(text);
                out.add(m);
                json.add(lines != null && text.indexOf('\n') < 0 && text.indexOf('\r') < 0 ? text : Protocol.write(m));
            } catch (java.io.IOException | ClassCastException | NullPointerException e) {
                throw new IllegalArgumentException("record " + i + " is unreadable: " + e.getMessage(), e);
            }
        }
        return new RecordLines(out, json);
    }
}
