package org.tunefarm.coordinator.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** A reply body given as the farm's JSON text makes the same frame as the body as an object. */
class FramesTest {

    @Test void aReplyAsTextIsTheSameFrameAsTheReplyAsAnObject() {
        String replyAddress = "reply-\"7\"\\é";
        String body = "{\"recorded\":2,\"detail\":\"up to 67.3 °C\",\"nested\":{\"a\":[1,2.5,null]}}";
        JsonObject fromText = frame(Frames.message(replyAddress, body));
        JsonObject fromObject = frame(Frames.message(replyAddress, new JsonObject(body)));
        assertEquals(fromObject, fromText);
        assertEquals("up to 67.3 °C", fromText.getJsonObject("body").getString("detail"));
        assertEquals(replyAddress, fromText.getString("address"));
    }

    /** The frame's length prefix is its payload's byte count; the payload, parsed. */
    private static JsonObject frame(Buffer b) {
        assertEquals(b.length() - 4, b.getInt(0), "length prefix");
        return new JsonObject(b.getBuffer(4, b.length()));
    }
}
