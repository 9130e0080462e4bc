package org.tunefarm.coordinator.bridge;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * The frames the coordinator writes, in the Vert.x TCP event-bus bridge's format, so any client
 * of that bridge (ours, Vert.x's {@code TcpEventBusClient}, a Python or C one) reads them:
 * {@code message} carries a reply body to the request's reply address, {@code err} a failure,
 * {@code pong} answers {@code ping}.
 */
final class Frames {

    private Frames() {}

    static Buffer encode(JsonObject frame) {
        return prefixed(frame.toBuffer());
    }

    /** The payload behind its length, as the bridge's wire format has it. */
    private static Buffer prefixed(Buffer payload) {
        return Buffer.buffer(4 + payload.length()).appendInt(payload.length()).appendBuffer(payload);
    }

    /**
     * The reply to a request, addressed to the reply address the client chose. A body given as
     * text is the farm's own JSON object, written into the frame as it is.
     */
    static Buffer message(String replyAddress, Object body) {
        if (body instanceof String json) {
            Buffer payload = Buffer.buffer(json.length() + 96).appendString("{\"type\":\"message\",\"address\":")
                    .appendString(Json.encode(replyAddress)).appendString(",\"send\":true,\"headers\":{},\"body\":")
                    .appendString(json).appendString("}");
            return prefixed(payload);
        }
        return encode(new JsonObject().put("type", "message").put("address", replyAddress).put("send", true)
                .put("headers", new JsonObject()).put("body", body));
    }

    /** The farm answered the request with a failure (a refused message: 400, or a store failure: 500). */
    static Buffer failure(String replyAddress, String address, ReplyException e) {
        JsonObject f = new JsonObject().put("type", "err").put("sourceAddress", address)
                .put("failureCode", e.failureCode()).put("failureType", e.failureType().name()).put("message", e.getMessage());
        if (replyAddress != null) f.put("address", replyAddress);
        return encode(f);
    }

    /**
     * The bridge itself refused a frame. The Vert.x bridge sends {@code {type: err, message}};
     * the reply address, when the frame had one, lets a client fail that request at once.
     */
    static Buffer refusal(String replyAddress, int code, String message) {
        JsonObject f = new JsonObject().put("type", "err").put("failureCode", code).put("message", message);
        if (replyAddress != null) f.put("address", replyAddress);
        return encode(f);
    }

    static Buffer pong() {
        return encode(new JsonObject().put("type", "pong"));
    }
}
