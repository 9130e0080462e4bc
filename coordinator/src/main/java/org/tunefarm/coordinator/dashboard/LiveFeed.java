package org.tunefarm.coordinator.dashboard;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.tunefarm.coordinator.api.ApiVerticle;

/**
 * The dashboard's live updates as Server-Sent Events. Once a second the farm view is read from
 * the cluster maps; a {@code state} event goes out when it changed, and a {@code records} event
 * with the records that arrived since. A new client gets the whole state at once. The page reads
 * the stream with {@code fetch} rather than {@code EventSource}, which cannot send the
 * {@code Authorization} header: so the read token stays in a header, as on every other read,
 * and out of URLs (access logs, browser history, proxies).
 */
final class LiveFeed {
    private static final Logger LOG = Logger.getLogger(LiveFeed.class.getName());
    static final long TICK_MS = 1_000;
    /** A comment line this often keeps idle proxies from closing the stream. */
    static final long KEEPALIVE_MS = 15_000;
    /** Streams served at once; more are refused (429) rather than slowing everyone. */
    static final int MAX_CLIENTS = 64;

    private final FarmView view;
    private final RecordTally tally;
    private final Set<HttpServerResponse> clients = new LinkedHashSet<>();
    private JsonObject state;
    private String stateText = "";
    private long lastSent;
    private boolean reading;

    LiveFeed(FarmView view, RecordTally tally) {
        this.view = view;
        this.tally = tally;
    }

    /** Starts the once-a-second reading, on the caller's context (the REST verticle's). */
    void start(Vertx vertx) {
        vertx.setPeriodic(1, TICK_MS, t -> tick());
    }

    /** {@code GET /api/feed}: opens a stream. */
    void open(RoutingContext ctx) {
        if (clients.size() >= MAX_CLIENTS) {
            ApiVerticle.error(ctx, 429, "request", "too many live feeds open (" + MAX_CLIENTS + "); close one and retry");
            return;
        }
        HttpServerResponse r = ctx.response();
        r.setChunked(true).putHeader("Content-Type", "text/event-stream; charset=utf-8").putHeader("Cache-Control", "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        clients.add(r);
        r.closeHandler(v -> clients.remove(r));
        r.exceptionHandler(e -> clients.remove(r));
        if (state != null) send(r, "state", state.encode());
        else r.write(": waiting for the first reading\n\n");
    }

    private void tick() {
        if (reading) return; // the cluster is slow: skip a beat rather than pile reads up
        reading = true;
        view.read().onComplete(ar -> {
            reading = false;
            if (ar.failed()) {
                LOG.log(Level.FINE, "reading the farm view failed", ar.cause());
                return;
            }
            long now = System.currentTimeMillis();
            JsonObject next = ar.result();
            String text = next.encode();
            List<JsonObject> fresh = tally.takeFresh();
            if (!fresh.isEmpty()) broadcast("records", new JsonArray(fresh).encode());
            if (!text.equals(stateText)) {
                state = next;
                stateText = text;
                broadcast("state", text);
            } else if (now - lastSent > KEEPALIVE_MS) {
                broadcast(null, null);
            }
        });
    }

    private void broadcast(String event, String data) {
        lastSent = System.currentTimeMillis();
        for (HttpServerResponse r : List.copyOf(clients)) {
            if (r.writeQueueFull()) {
                // A client that cannot keep up is dropped; its page reconnects and gets the state anew.
                clients.remove(r);
                r.reset();
                continue;
            }
            if (event == null) r.write(": keepalive\n\n");
            else send(r, event, data);
        }
    }

    private static void send(HttpServerResponse r, String event, String data) {
        r.write("event: " + event + "\ndata: " + data + "\n\n");
    }
}
