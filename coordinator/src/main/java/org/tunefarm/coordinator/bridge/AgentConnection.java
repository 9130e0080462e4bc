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
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import org.tunefarm.coordinator.audit.Audit;
import org.tunefarm.coordinator.credential.Credential;
import org.tunefarm.coordinator.credential.Credentials;
import org.tunefarm.protocol.Enroll;
import org.tunefarm.protocol.Enrolled;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.ProtocolException;

/**
 * One agent's connection: reads frames with hard limits, checks each one, forwards the sane ones
 * to the farm's event-bus addresses as requests, and writes each reply back on this socket only.
 *
 * <p>A connection is bound to the agent id it registered with: until it has registered, it may
 * only enroll (farm token) or register (the id's credential, or the farm token for an id that never
 * enrolled: {@link CredentialCheck}); afterwards every frame must name that same id and carry the
 * token it registered with. So an agent cannot pull work, heartbeat or report as another agent,
 * and the dispatcher's lease-ownership check (by agent id) cannot be sidestepped by lying about
 * the id. A revoked or re-issued credential closes the connection at once ({@link #recheck}).
 *
 * <p>Refusals: a broken stream (bad length, late frame, not JSON, not an object) or a wrong token
 * closes the connection, and so does a refused registration (counted against the address's
 * failed registrations, {@link Admission}); anything else gets an {@code err} frame and the connection stays, so an
 * honest agent told its lease expired carries on.
 */
final class AgentConnection {
    /** Longer than any honest request takes: a report waits for an fsync. */
    static final long REQUEST_TIMEOUT_MS = 30_000;
    /** An agent has a heartbeat and one pull or report out at a time; a few more is slack. */
    static final int MAX_IN_FLIGHT = 16;
    private static final int MAX_REPLY_ADDRESS = 256;

    /** One strict reader: no trailing garbage after the object, no key given twice. */
    private static final ObjectReader STRICT = Protocol.JSON.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);

    private final AgentBridge bridge;
    private final NetSocket socket;
    private final FrameReader reader;
    private final String peer;
    /** The remote host, the key of the admission limits. */
    private final String address;
    private Context context;
    private String agentId;
    /** The token or credential this connection registered with: every later frame must carry it. */
    private byte[] admitted;
    /** A registration or enrollment is being checked; one at a time. */
    private boolean registering;
    /** Whether this connection left the unregistered count (registered or closed). */
    private boolean settled;
    private int inFlight;
    private long frameTimer = -1;
    private long registerTimer;
    private boolean closed;

    AgentConnection(AgentBridge bridge, NetSocket socket, String address) {
        this.bridge = bridge;
        this.socket = socket;
        this.reader = new FrameReader(bridge.door().maxFrameBytes());
        this.peer = String.valueOf(socket.remoteAddress());
        this.address = address;
    }

    void start() {
        context = bridge.vertx().getOrCreateContext();
        socket.handler(this::received);
        socket.exceptionHandler(t -> drop("socket error: " + t.getMessage()));
        socket.closeHandler(v -> closed());
        long within = bridge.door().registration().registerWithinMs();
        registerTimer = bridge.vertx().setTimer(within, t -> {
            if (agentId == null) close("no-register", "did not register within " + within + " ms");
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

    private void send(JsonNode json, String replyAddress) {
        SendFrame frame = SendFrame.of(json);
        String address = frame.address();
        String id = frame.agentId();
        boolean farmToken = frame.carries(bridge.token());
        boolean isRegister = Protocol.REGISTER.equals(address);
        // Before registering, only a register may carry something other than the farm token (the
        // agent's credential, checked against the id it names); after, the one it registered with.
        boolean tokenOk = agentId != null ? frame.carries(admitted)
                : farmToken || (isRegister && frame.token() != null && !frame.token().isEmpty() && id != null);
        if (!tokenOk) {
            // Told why, then cut off: a connection without the token has no business here.
            write(Frames.refusal(replyAddress, 401, agentId != null ? "headers.token: not the credential this connection registered with"
                    : "headers.token: missing or wrong farm token"));
            if (agentId == null) bridge.admission().failed(this.address);
            close("bad-token", "a frame without the farm token or the agent's credential");
            return;
        }
        if (Protocol.ENROLL.equals(address)) {
            enroll(frame.body(), replyAddress);
            return;
        }
        if (address == null || !Protocol.AGENT_INBOUND.contains(address)) {
            refuse(replyAddress, 403, "address-not-permitted", "address: agents may send to " + Protocol.AGENT_INBOUND + " and " + Protocol.ENROLL + " only");
            return;
        }
        JsonNode body = frame.body();
        if (!frame.bodyIsObject()) {
            refuse(replyAddress, 400, "bad-body", "body: must be a JSON object");
            return;
        }
        if (id == null) {
            refuse(replyAddress, 400, "no-agent-id", "body.agentId: is required");
            return;
        }
        if (agentId == null && !isRegister) {
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
        if (agentId != null) {
            forward(address, body, replyAddress, null, null);
            return;
        }
        if (this.registering) {
            refuse(replyAddress, 409, "already-registering", "register: this connection is already registering");
            return;
        }
        this.registering = true;
        inFlight++;
        bridge.credentials().lookup(id).onComplete(ar -> context.runOnContext(v -> {
            inFlight--;
            if (closed) return;
            if (ar.failed()) {
                this.registering = false;
                refuse(replyAddress, 503, "credentials-unavailable", "the farm's credentials cannot be read now, register again: " + ar.cause().getMessage());
                return;
            }
            CredentialCheck.Refusal no = CredentialCheck.refusal(ar.result(), id, frame.token(), farmToken);
            if (no != null) {
                this.registering = false;
                bridge.admission().failed(this.address);
                write(Frames.refusal(replyAddress, no.code(), no.message()));
                close(no.kind(), no.message());
                return;
            }
            forward(address, body, replyAddress, id, frame.tokenBytes());
        }));
    }

    /** Hands a checked request to the farm; a register that succeeds binds this connection to its id. */
    private void forward(String address, JsonNode body, String replyAddress, String registeringId, byte[] token) {
        inFlight++;
        // Client headers are not forwarded: only the bridge decides timeouts and codecs.
        // As its JSON text: the farm parses it once, straight into its type, and answers in text.
        bridge.vertx().eventBus().<Object>request(address, body.toString(), new DeliveryOptions().setSendTimeout(REQUEST_TIMEOUT_MS))
                .onComplete(ar -> {
                    inFlight--;
                    if (registeringId != null) registering = false;
                    if (closed) return;
                    if (ar.succeeded()) {
                        if (registeringId != null && agentId == null) bind(registeringId, token);
                        if (replyAddress != null) write(Frames.message(replyAddress, ar.result().body()));
                        return;
                    }
                    ReplyException e = ar.cause() instanceof ReplyException re ? re : new ReplyException(ReplyFailure.RECIPIENT_FAILURE, 500, String.valueOf(ar.cause().getMessage()));
                    if (e.failureCode() >= 400 && e.failureCode() < 500) {
                        counted("farm-refused", e.getMessage());
                        if (registeringId != null) bridge.admission().failed(this.address);
                    }
                    write(Frames.failure(replyAddress, address, e));
                });
    }

    /** Answered here, not by the farm: the credentials live on every coordinator. */
    private void enroll(JsonNode body, String replyAddress) {
        if (agentId != null || registering) {
            refuse(replyAddress, 409, "enroll-after-register", "enroll: enroll before registering, on a fresh connection");
            return;
        }
        Enroll e;
        try {
            e = Protocol.read(body, Enroll.class);
        } catch (ProtocolException x) {
            refuse(replyAddress, 400, "bad-body", x.getMessage());
            return;
        }
        registering = true;
        bridge.credentials().enroll(e.agentId(), new Audit.Who("farm-token", e.agentId(), peer)).onComplete(ar -> context.runOnContext(v -> {
            registering = false;
            if (closed) return;
            if (ar.succeeded()) {
                AgentBridge.LOG.info(() -> "agent " + e.agentId() + " enrolled from " + peer);
                write(Frames.message(replyAddress, Protocol.write(new Enrolled(e.agentId(), ar.result()))));
            } else if (ar.cause() instanceof Credentials.Refused r) {
                bridge.admission().failed(address);
                refuse(replyAddress, r.code(), "enroll-refused", r.getMessage());
            } else {
                refuse(replyAddress, 503, "credentials-unavailable", "enroll: the farm's credentials cannot be written now, enroll again: " + ar.cause().getMessage());
            }
        }));
    }

    /** A credential of this connection's agent changed in the farm: closes it unless it still admits it. */
    void recheck(Credential c) {
        context.runOnContext(v -> {
            if (closed || agentId == null || !agentId.equals(c.agentId())) return;
            if (!c.matches(new String(admitted, StandardCharsets.UTF_8))) {
                close(c.enrolled() ? "credential-replaced" : "revoked", "agent " + agentId + (c.enrolled() ? " got a new credential" : " was revoked"));
            }
        });
    }

    private void bind(String id, byte[] token) {
        agentId = id;
        admitted = token;
        bridge.vertx().cancelTimer(registerTimer);
        settle();
        bridge.bind(id, this);
    }

    private void settle() {
        if (settled) return;
        settled = true;
        bridge.admission().settled(address);
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
        settle();
        cancelFrameTimer();
        bridge.vertx().cancelTimer(registerTimer);
        if (agentId != null) bridge.unbind(agentId, this);
    }

    private void cancelFrameTimer() {
        if (frameTimer >= 0) bridge.vertx().cancelTimer(frameTimer);
        frameTimer = -1;
    }
}
