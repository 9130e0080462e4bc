package org.tunefarm.coordinator.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.tunefarm.protocol.Protocol;

/**
 * What a {@code send} frame claims, read once: the address, the body, the agent id the body names
 * and the token in its headers (the farm token or an agent's credential). Any of them may be null
 * when the frame lacks it or gives it with the wrong type.
 */
record SendFrame(String address, JsonNode body, String agentId, String token) {

    static SendFrame of(JsonNode frame) {
        JsonNode headers = frame.get("headers");
        JsonNode token = headers != null && headers.isObject() ? headers.get(Protocol.TOKEN_HEADER) : null;
        JsonNode address = frame.get("address");
        JsonNode body = frame.get("body");
        JsonNode id = body != null && body.isObject() ? body.get("agentId") : null;
        return new SendFrame(address != null && address.isTextual() ? address.textValue() : null, body,
                id != null && id.isTextual() ? id.textValue() : null, token != null && token.isTextual() ? token.textValue() : null);
    }

    /** Whether the frame carries exactly {@code expected} as its token (constant time). */
    boolean carries(byte[] expected) {
        return token != null && expected != null && MessageDigest.isEqual(expected, token.getBytes(StandardCharsets.UTF_8));
    }

    byte[] tokenBytes() {
        return token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    }

    boolean bodyIsObject() {
        return body != null && body.isObject();
    }

    @Override public String toString() {
        return "SendFrame[address=" + address + ", agentId=" + agentId + "]"; // never the token
    }
}
