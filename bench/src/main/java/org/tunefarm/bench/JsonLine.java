package org.tunefarm.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.Map;
import org.tunefarm.protocol.Protocol;

/** A bench's result: one JSON object on one line, always the last line it prints, for scripts and CI. */
final class JsonLine {

    private JsonLine() {}

    static void print(Map<String, Object> fields) {
        try {
            System.out.println(Protocol.JSON.writeValueAsString(fields));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("bench results are plain maps and numbers", e);
        }
        System.out.flush();
    }
}
