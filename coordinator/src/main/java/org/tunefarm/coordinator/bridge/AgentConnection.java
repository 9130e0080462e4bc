package org.tunefarm.coordinator.bridge;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.tunefarm.protocol.Protocol;

/**
 * One agent's connection: reads frames with hard limits, checks each one, forwards the sane ones
 * to the farm's event-bus addresses as requests, and writes each reply back on this socket only.
 *
 * <p>A connection is bound to the agent id it registered with: until it has registered, it may
 * only register; afterwards every frame must name that same id. So an agent cannot pull work,
 * heartbeat or report as another agent, and the dispatcher's lease-ownership check (by agent id)
 * cannot be sidestepped by lying about the id.
 *
 * <p>Refusals: a broken stream (bad length, late frame, not JSON, not an object) or a wrong token
 * closes the connection; anything else gets an {@code err} frame and the connection stays, so an
 * honest agent told its lease expired carries on.
 */
final class AgentConnection {
    /** Longer than any honest request takes: a report waits for an fsync. */
    static final long REQUEST_TIMEOUT_MS = 30_000;
    /** An agent has a heartbeat and one pull or report out at a time; a few more is slack. */
    static final int MAX_IN_FLIGHT = 16;
    /** An agent registers right after connecting; a connection that does not is closed. */
    static final long REGISTER_WITHIN_MS = 60_000;
    private static final int MAX_REPLY_ADDRESS = 256;

    /** One strict reader: no trailing garbage after the object, no key given twice. */
    private static final ObjectReader STRICT = Protocol.JSON.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);

    private final AgentBridge bridge;
    private final NetSocket socket;
    private final FrameReader reader;
    private final String peer;
    private Context context;
    private String agentId;
    private int inFlight;
    private long frameTimer = -1;
    private long registerTimer;
    private boolean closed;

    AgentConnection(AgentBridge bridge, NetSocket socket) {
        this.bridge = bridge;
        this.socket = socket;
        this.reader = new FrameReader(bridge.door().maxFrameBytes());
        this.peer = String.valueOf(socket.remoteAddress());
    }

    void start() {
        context = bridge.vertx().getOrCreateContext();
        socket.handler(this::received);
        socket.exceptionHandler(t -> drop("socket error: " + t.getMessage()));
        socket.closeHandler(v -> closed());
        registerTimer = bridge.vertx().setTimer(REGISTER_WITHIN_MS, t -> {
            if (agentId == null) close("no-register", "did not register within " + REGISTER_WITHIN_MS + " ms");
        });
    }

    String agentId() {
        return agentId;
    }

    private void received(Buffer chunk) {
        if (closed) return;
        FrameReader.Result r = reader.feed(chunk);
        for (Buffer frame : r.frames()) {
            if (closed) return;
            handle(frame);
        }
        if (r.fault() != null) {
            close("bad-length", r.fault());
            return;
        }
        // The clock runs from the first byte of a frame: a trickle cannot hold a connection open.
        if (!reader.pending()) {
            cancelFrameTimer();
        } else if (frameTimer < 0 || !r.frames().isEmpty()) {
            cancelFrameTimer();
            long ms = bridge.door().frameTimeoutMs();
            frameTimer = bridge.vertx().setTimer(ms, t -> {
                frameTimer = -1;
                close("frame-timeout", "a frame did not arrive whole within " + ms + " ms");
            });
        }
    }

    private void handle(Buffer payload) {
        JsonNode frame;
        try {
            frame = STRICT.readTree(payload.getBytes());
        } catch (Exception e) {
            close("not-json", "the frame is not JSON");
            return;
        }
        if (frame == null || !frame.isObject()) {
            close("not-an-object", "the frame is not a JSON object");
            return;
        }
        JsonNode type = frame.get("type");
        JsonNode replyNode = frame.get("replyAddress");
        String replyAddress = replyNode != null && replyNode.isTextual() && replyNode.textValue().length() <= MAX_REPLY_ADDRESS ? replyNode.textValue() : null;
        if (replyNode != null && !replyNode.isNull() && replyAddress == null) {
            refuse(null, 400, "bad-reply-address", "replyAddress: must be a string of at most " + MAX_REPLY_ADDRESS + " characters");
            return;
        }
        String t = type != null && type.isTextual() ? type.textValue() : "";
        switch (t) {
            case "ping" -> write(Frames.pong());
            case "send" -> send(frame, replyAddress);
            case "publish", "register", "unregister" ->
                    refuse(replyAddress, 403, "type-not-allowed", "type: agents may only send requests and pings, not " + t);
            default -> refuse(replyAddress, 400, "unknown-type", "type: must be send or ping");
        }
    }

    private void send(JsonNode frame, String replyAddress) {
        JsonNode headers = frame.get("headers");
        JsonNode token = headers != null && headers.isObject() ? headers.get(Protocol.TOKEN_HEADER) : null;
        if (token == null || !token.isTextual() || !MessageDigest.isEqual(bridge.token(), token.textValue().getBytes(StandardCharsets.UTF_8))) {
            // Told why, then cut off: a connection without the token has no business here.
            write(Frames.refusal(replyAddress, 401, "headers.token: missing or wrong farm token"));
            close("bad-token", "a frame without the farm token");
            return;
        }
        JsonNode addressNode = frame.get("address");
        String address = addressNode != null && addressNode.isTextual() ? addressNode.textValue() : null;
        if (address == null || !Protocol.AGENT_INBOUND.contains(address)) {
            refuse(replyAddress, 403, "address-not-permitted", "address: agents may send to " + Protocol.AGENT_INBOUND + " only");
            return;
        }
        JsonNode body = frame.get("body");
        if (body == null || !body.isObject()) {
            refuse(replyAddress, 400, "bad-body", "body: must be a JSON object");
            return;
        }
        JsonNode idNode = body.get("agentId");
        String id = idNode != null && idNode.isTextual() ? idNode.textValue() : null;
        if (id == null) {
            refuse(replyAddress, 400, "no-agent-id", "body.agentId: is required");
            return;
        }
        boolean registering = address.equals(Protocol.REGISTER);
        if (agentId == null && !registering) {
            refuse(replyAddress, 403, "not-registered", "register first: this connection has not registered an agent");
            return;
        }
        if (agentId != null && !agentId.equals(id)) {
            refuse(replyAddress, 403, "impersonation", "body.agentId: this connection is agent " + agentId + ", not " + id);
            return;
        }
        if (inFlight >= MAX_IN_FLIGHT) {
            refuse(replyAddress, 429, "too-many-in-flight", "more than " + MAX_IN_FLIGHT + " requests in flight on one connection");
            return;
        }
        inFlight++;
        // Client headers are not forwarded: only the bridge decides timeouts and codecs.
        bridge.vertx().eventBus().<JsonObject>request(address, new JsonObject(body.toString()), new DeliveryOptions().setSendTimeout(REQUEST_TIMEOUT_MS))
                .onComplete(ar -> {
                    inFlight--;
                    if (closed) return;
                    if (ar.succeeded()) {
                        if (registering && agentId == null) bind(id);
                        if (replyAddress != null) write(Frames.message(replyAddress, ar.result().body()));
                        return;
                    }
                    ReplyException e = ar.cause() instanceof ReplyException re ? re : new ReplyException(ReplyFailure.RECIPIENT_FAILURE, 500, String.valueOf(ar.cause().getMessage()));
                    if (e.failureCode() >= 400 && e.failureCode() < 500) counted("farm-refused", e.getMessage());
                    write(Frames.failure(replyAddress, address, e));
                });
    }

    private void bind(String id) {
        agentId = id;
        bridge.vertx().cancelTimer(registerTimer);
        bridge.bind(id, this);
    }

    private void refuse(String replyAddress, int code, String kind, String message) {
        counted(kind, message);
        write(Frames.refusal(replyAddress, code, message));
    }

    private void counted(String kind, String message) {
        bridge.refusals().refused("bridge", kind, agentId == null ? peer : agentId + "@" + peer, message);
    }

    private void write(Buffer frame) {
        if (closed) return;
        // A client that does not read its replies would make them pile up here.
        if (socket.writeQueueFull()) {
            close("not-reading", "the client is not reading its replies");
            return;
        }
        socket.write(frame);
    }

    /** Closes the connection as a refusal, counted and logged as {@code closed/kind}. */
    void close(String kind, String message) {
        if (closed) return;
        counted("closed/" + kind, message);
        drop(null);
    }

    /** Closes this connection from another connection's thread: the agent came back on a newer one. */
    void replaced(String why) {
        context.runOnContext(v -> drop(why));
    }

    /** Closes the connection for a reason that is not the peer's fault (a reset, a newer connection). */
    void drop(String why) {
        if (closed) return;
        if (why != null) AgentBridge.LOG.info(() -> "closing bridge connection " + (agentId == null ? peer : agentId + "@" + peer) + ": " + why);
        closed = true;
        socket.close();
        closed();
    }

    private void closed() {
        closed = true;
        cancelFrameTimer();
        bridge.vertx().cancelTimer(registerTimer);
        if (agentId != null) bridge.unbind(agentId, this);
    }

    private void cancelFrameTimer() {
        if (frameTimer >= 0) bridge.vertx().cancelTimer(frameTimer);
        frameTimer = -1;
    }
}
