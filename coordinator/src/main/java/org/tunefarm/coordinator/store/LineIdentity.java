package org.tunefarm.coordinator.store;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * A record's id and version ({@link RecordIds#version}) read from its JSON line by the parser's
 * tokens alone, without binding the record: what a coordinator copying a peer's log needs to see
 * that it holds a line already. A catch-up between two coordinators reads back what the other
 * copied from it, every record it already has, and binding each of them was a third of the
 * leader's CPU while a peer caught up.
 *
 * @param recordId {@link Measurement#recordId()}
 * @param version  {@link RecordIds#version(Measurement)}
 */
record LineIdentity(String recordId, int version) {
    /** A field the identity does not need. */
    private static final Object SKIPPED = new Object();

    /**
     * The line's identity, or null when the line does not state it plainly (a field missing, of
     * another type, a shape that is not integers): the caller then reads the record whole, and
     * decides by that, as before.
     */
    static LineIdentity peek(String line) {
        try (JsonParser p = Protocol.JSON.getFactory().createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return null;
            Map<String, Object> fields = new HashMap<>();
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                Object value = switch (name) {
                    case "sweepId", "deviceClass", "agentId" -> v == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "index", "startedAt", "finishedAt", "round" -> integer(p, v);
                    case "key" -> key(p, v);
                    default -> {
                        p.skipChildren();
                        yield SKIPPED;
                    }
                };
                // A field of another type, or one given twice: not plain, so not guessed at.
                if (value == null || value != SKIPPED && fields.put(name, value) != null) return null;
            }
            if (p.currentToken() != JsonToken.END_OBJECT) return null;
            Object round = fields.getOrDefault("round", 0L);
            if (!(fields.get("sweepId") instanceof String sweepId) || !(fields.get("deviceClass") instanceof String deviceClass)
                    || !(fields.get("agentId") instanceof String agentId) || !(fields.get("key") instanceof KernelKey key)
                    || !(fields.get("index") instanceof Long index) || !(fields.get("startedAt") instanceof Long startedAt)
                    || !(fields.get("finishedAt") instanceof Long finishedAt) || (long) (Long) round != (int) (long) (Long) round) {
                return null;
            }
            return new LineIdentity(Measurement.recordId(sweepId, deviceClass, key, index, (int) (long) (Long) round),
                    RecordIds.version(agentId, startedAt, finishedAt));
        } catch (IOException | RuntimeException e) {
            return null; // not plain: read whole
        }
    }

    private static Long integer(JsonParser p, JsonToken t) throws IOException {
        return t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER ? p.getLongValue() : null;
    }

    /** {@code {"op": ..., "shape": {name: int, ...}, "dtype": ...}}, or null when it is anything else. */
    private static KernelKey key(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.START_OBJECT) return null;
        String op = null, dtype = null;
        Map<String, Integer> shape = null;
        for (JsonToken f = p.nextToken(); f == JsonToken.FIELD_NAME; f = p.nextToken()) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            switch (name) {
                case "op", "dtype" -> {
                    if (v != JsonToken.VALUE_STRING || (name.equals("op") ? op : dtype) != null) return null;
                    if (name.equals("op")) op = p.getText();
                    else dtype = p.getText();
                }
                case "shape" -> {
                    if (v != JsonToken.START_OBJECT || shape != null) return null;
                    shape = new HashMap<>();
                    for (JsonToken d = p.nextToken(); d == JsonToken.FIELD_NAME; d = p.nextToken()) {
                        String dim = p.currentName();
                        Long size = integer(p, p.nextToken());
                        if (size == null || size != (int) (long) size || shape.put(dim, (int) (long) size) != null) return null;
                    }
                }
                default -> p.skipChildren();
            }
        }
        return op == null || dtype == null || shape == null ? null : new KernelKey(op, shape, dtype);
    }
}
