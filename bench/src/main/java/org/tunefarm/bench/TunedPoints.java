package org.tunefarm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.protocol.Protocol;

/**
 * Tuned points read from an exported best-kernel table ({@code tunefarm table export}). The table
 * holds one winner per shape; the bench runs it at each case's thread count.
 */
final class TunedPoints {

    private final JsonNode entries;

    private TunedPoints(JsonNode entries) {
        this.entries = entries;
    }

    static TunedPoints fromTable(Path file) throws IOException {
        JsonNode doc = Protocol.JSON.readTree(file.toFile());
        return new TunedPoints(doc.has("entries") ? doc.get("entries") : doc);
    }

    /** The fastest entry's parameters for this shape with {@code threads} threads, or null when the table has none. */
    Map<String, Object> point(KernelKey key, int threads) {
        JsonNode best = null;
        for (JsonNode e : entries) {
            JsonNode k = e.path("kernel");
            if (!k.path("op").asText().equals(key.op())) continue;
            boolean same = key.shape().entrySet().stream().allMatch(d -> k.path("shape").path(d.getKey()).asInt() == d.getValue());
            if (same && (best == null || e.path("stats").path("medianNs").asDouble() < best.path("stats").path("medianNs").asDouble())) best = e;
        }
        if (best == null) return null;
        Map<String, Object> p = new LinkedHashMap<>(Protocol.JSON.convertValue(best.get("params"), Map.class));
        p.put("threads", threads);
        return p;
    }
}
