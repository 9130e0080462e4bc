package org.tunefarm.agent.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/** JSON lines of the worker protocol: one record per line, no pretty printing. */
final class WorkerCodec {

    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private WorkerCodec() {}

    static String line(Object message) {
        try {
            return JSON.writeValueAsString(message);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("protocol records always serialise", e);
        }
    }

    /** @throws IllegalArgumentException when the line is not a {@code type} */
    static <T> T parse(String line, Class<T> type) {
        try {
            return JSON.readValue(line, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }
}
