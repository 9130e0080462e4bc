package org.tunefarm.agent.link;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.tunefarm.protocol.Protocol;

/**
 * One outbound connection to a coordinator's agent bridge (works behind NAT and on phones), plain
 * or TLS. Frames are those of the Vert.x TCP event-bus bridge: a 4-byte big-endian length and a
 * UTF-8 JSON object; requests carry a token (the farm token to enroll, then the agent's own
 * credential) and a reply address, and the bridge writes the reply back on the same socket.
 */
public final class BridgeClient {
    private static final Logger LOG = Logger.getLogger(BridgeClient.class.getName());
    /** Replies larger than this are a broken or hostile peer. */
    static final int MAX_FRAME = 16 * 1024 * 1024;

    private final Vertx vertx;
    /** The farm token until the agent registers with its credential. */
    private volatile String token;
    private final LinkTls tls;
    private final Map<String, Promise<JsonObject>> pending = new ConcurrentHashMap<>();
    private NetClient client;
    private volatile NetSocket socket;
    private Buffer inbox = Buffer.buffer();
    private Runnable onClose = () -> {};

    public BridgeClient(Vertx vertx, String token) {
        this(vertx, token, null);
    }

    /** @param tls null for plain TCP */
    public BridgeClient(Vertx vertx, String token, LinkTls tls) {
        this.vertx = vertx;
        this.token = token;
        this.tls = tls;
    }

    /** From now on frames carry this token (the agent's credential once it has one). */
    public void useToken(String t) {
        token = t;
    }

    public Future<Void> connect(String host, int port, long timeoutMs) {
        NetClientOptions options = new NetClientOptions().setConnectTimeout((int) timeoutMs).setTcpKeepAlive(true).setTcpNoDelay(true);
        client = vertx.createNetClient(tls == null ? options : tls.apply(options));
        return client.connect(port, host).map(s -> {
            socket = s;
            inbox = Buffer.buffer();
            s.handler(this::received);
            s.closeHandler(v -> closed());
            return null;
        });
    }

    /** Called once when the connection is lost; pending requests fail first. */
    public void onClose(Runnable r) {
        onClose = r;
    }

    public boolean connected() {
        return socket != null;
    }

    /** Sends a request to an address and completes with the reply body, or fails with the farm's message. */
    public Future<JsonObject> request(String address, Object body, long timeoutMs) {
        NetSocket s = socket;
        if (s == null) return Future.failedFuture(new IllegalStateException("not connected"));
        String replyAddress = UUID.randomUUID().toString();
        Promise<JsonObject> p = Promise.promise();
        pending.put(replyAddress, p);
        long timer = vertx.setTimer(timeoutMs, t -> {
            Promise<JsonObject> q = pending.remove(replyAddress);
            if (q != null) q.tryFail("no reply from " + address + " within " + timeoutMs + " ms");
        });
        String envelope = new JsonObject().put("type", "send").put("address", address).put("replyAddress", replyAddress)
                .put("headers", new JsonObject().put(Protocol.TOKEN_HEADER, token)).encode();
        // The body's JSON text goes into the envelope as it is: parsing it into a JsonObject only
        // to encode it again doubled a report's cost on the agent.
        Buffer payload = Buffer.buffer(envelope.substring(0, envelope.length() - 1) + ",\"body\":" + Protocol.write(body) + "}");
        s.write(Buffer.buffer(4 + payload.length()).appendInt(payload.length()).appendBuffer(payload));
        return p.future().andThen(ar -> vertx.cancelTimer(timer));
    }

    private void received(Buffer data) {
        inbox.appendBuffer(data);
        while (inbox.length() >= 4) {
            int len = inbox.getInt(0);
            if (len < 0 || len > MAX_FRAME) {
                LOG.warning("bridge sent a frame of " + len + " bytes; closing");
                socket.close();
                return;
            }
            if (inbox.length() < 4 + len) return;
            JsonObject frame;
            try {
                frame = new JsonObject(inbox.getString(4, 4 + len));
            } catch (RuntimeException e) {
                LOG.warning("unreadable frame from the bridge: " + e.getMessage());
                frame = null;
            }
            inbox = inbox.getBuffer(4 + len, inbox.length());
            if (frame != null) dispatch(frame);
        }
    }

    private void dispatch(JsonObject frame) {
        String type = frame.getString("type", "");
        String address = frame.getString("address");
        Promise<JsonObject> p = address == null ? null : pending.remove(address);
        switch (type) {
            case "message" -> {
                if (p != null) p.tryComplete(frame.getJsonObject("body"));
            }
            case "err" -> {
                String msg = frame.getString("message", "refused");
                if (p != null) p.tryFail(new FarmRefusal(frame.getInteger("failureCode", -1), msg));
                else LOG.warning("the farm refused a frame: " + msg);
            }
            case "pong" -> { }
            default -> LOG.fine(() -> "ignoring frame of type " + type);
        }
    }

    private void closed() {
        socket = null;
        pending.values().forEach(p -> p.tryFail("connection to the coordinator closed"));
        pending.clear();
        onClose.run();
    }

    public Future<Void> close() {
        NetSocket s = socket;
        Future<Void> f = s == null ? Future.succeededFuture() : s.close();
        return f.compose(v -> client == null ? Future.succeededFuture() : client.close());
    }

    /** The farm answered with an error: a refused message, not a broken connection. */
    public static final class FarmRefusal extends RuntimeException {
        private final int code;

        public FarmRefusal(int code, String message) {
            super(message);
            this.code = code;
        }

        public int code() { return code; }
    }
}
