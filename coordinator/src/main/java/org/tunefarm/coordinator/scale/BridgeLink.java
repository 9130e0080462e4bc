package org.tunefarm.coordinator.scale;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tunefarm.protocol.Protocol;

/**
 * One simulated agent's connection to a coordinator's agent bridge, speaking the same wire format
 * as the agent's own client (a 4-byte big-endian length, then a JSON {@code send} frame with a
 * token header and a reply address; replies are {@code message} or {@code err} frames). The
 * coordinator's main code may not depend on the agent jar, so the bench has this small client of
 * its own. Not thread-safe: every call and callback runs on the context that connected it.
 */
final class BridgeLink {
    /** Replies larger than this mean a broken peer, as for the agent's client. */
    private static final int MAX_FRAME = 16 * 1024 * 1024;

    private final Vertx vertx;
    private final String name;
    private final Map<String, Promise<JsonNode>> pending = new HashMap<>();
    private NetSocket socket;
    private Buffer inbox = Buffer.buffer();
    private String token;
    private long sent;

    /** @param name prefixes this link's reply addresses, so they are unique without a UUID each */
    BridgeLink(Vertx vertx, String name, String token) {
        this.vertx = vertx;
        this.name = name;
        this.token = token;
    }

    /** Call on the context the link is to live on. */
    Future<Void> connect(NetClient client, String host, int port) {
        return client.connect(port, host).map(s -> {
            socket = s;
            s.handler(this::received);
            s.closeHandler(v -> closed());
            return null;
        });
    }

    /** From now on frames carry this token (the agent's credential once enrolled). */
    void useToken(String t) {
        token = t;
    }

    boolean connected() {
        return socket != null;
    }

    /** Sends {@code body} to {@code address}; completes with the reply body, fails with the farm's message. */
    Future<JsonNode> request(String address, Object body, long timeoutMs) {
        if (socket == null) return Future.failedFuture(new IOException("not connected"));
        String reply = name + "." + (++sent);
        Promise<JsonNode> p = Promise.promise();
        pending.put(reply, p);
        long timer = vertx.setTimer(timeoutMs, t -> {
            Promise<JsonNode> q = pending.remove(reply);
            if (q != null) q.tryFail(new IOException("no reply from " + address + " within " + timeoutMs + " ms"));
        });
        Map<String, Object> frame = new LinkedHashMap<>();
        frame.put("type", "send");
        frame.put("address", address);
        frame.put("replyAddress", reply);
        frame.put("headers", Map.of(Protocol.TOKEN_HEADER, token));
        frame.put("body", body);
        byte[] payload;
        try {
            payload = Protocol.JSON.writeValueAsBytes(frame);
        } catch (IOException e) {
            pending.remove(reply);
            vertx.cancelTimer(timer);
            return Future.failedFuture(e);
        }
        socket.write(Buffer.buffer(4 + payload.length).appendInt(payload.length).appendBytes(payload));
        return p.future().andThen(ar -> vertx.cancelTimer(timer));
    }

    private void received(Buffer data) {
        inbox.appendBuffer(data);
        int pos = 0;
        while (inbox.length() - pos >= 4) {
            int len = inbox.getInt(pos);
            if (len < 1 || len > MAX_FRAME) {
                socket.close();
                return;
            }
            if (inbox.length() - pos - 4 < len) break;
            dispatch(inbox.getBytes(pos + 4, pos + 4 + len));
            pos += 4 + len;
        }
        if (pos > 0) inbox = inbox.getBuffer(pos, inbox.length());
    }

    private void dispatch(byte[] json) {
        JsonNode frame;
        try {
            frame = Protocol.JSON.readTree(json);
        } catch (IOException e) {
            return; // an unreadable frame answers nothing; its request times out
        }
        Promise<JsonNode> p = pending.remove(frame.path("address").asText(""));
        if (p == null) return;
        switch (frame.path("type").asText()) {
            case "message" -> p.tryComplete(frame.get("body"));
            case "err" -> p.tryFail(new IOException("refused (" + frame.path("failureCode").asInt(-1) + "): " + frame.path("message").asText()));
            default -> p.tryFail(new IOException("unexpected frame " + frame.path("type").asText()));
        }
    }

    private void closed() {
        socket = null;
        pending.values().forEach(p -> p.tryFail(new IOException("connection to the coordinator closed")));
        pending.clear();
    }

    Future<Void> close() {
        NetSocket s = socket;
        return s == null ? Future.succeededFuture() : s.close();
    }
}
