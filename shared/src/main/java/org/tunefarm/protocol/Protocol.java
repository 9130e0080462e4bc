package org.tunefarm.protocol;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * The wire contract between agents and coordinators: the protocol version every message carries,
 * the event-bus addresses, and the one JSON mapper both sides use. Bodies are the records in this
 * package; any language that can write framed JSON can be an agent.
 */
public final class Protocol {

    /** Bumped on any incompatible change; a message with another version is refused. */
    public static final int VERSION = 1;

    /**
     * The protocol versions this build accepts from the other side; /api/health shows them, and a
     * message with any other version is refused with a message that names them.
     */
    public static final java.util.List<Integer> ACCEPTED = java.util.List.of(VERSION);

    /** An agent registers with its profile and gets its heartbeat period back. */
    public static final String REGISTER = "tunefarm.agent.register";
    /** An agent says it is alive, and what it is doing. */
    public static final String HEARTBEAT = "tunefarm.agent.heartbeat";
    /** An idle agent asks for a batch; the reply is a lease or "nothing now". */
    public static final String PULL = "tunefarm.work.pull";
    /** An agent reports measurements against its lease; the reply comes after they are durable. */
    public static final String REPORT = "tunefarm.work.report";

    /**
     * An agent asks for its own credential with the farm token; answered by the bridge itself, so
     * it is not one of {@link #AGENT_INBOUND}.
     */
    public static final String ENROLL = "tunefarm.agent.enroll";

    /** Addresses the bridge forwards to the farm for agents: exactly these. */
    public static final java.util.List<String> AGENT_INBOUND = java.util.List.of(REGISTER, HEARTBEAT, PULL, REPORT);

    /**
     * Header carrying, on every bridge frame, the agent's credential once it has one, else the
     * farm token.
     */
    public static final String TOKEN_HEADER = "token";

    /**
     * Bounds on what the mapper accepts, so a hostile body cannot exhaust memory or the stack.
     */
    private static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxNestingDepth(64).maxStringLength(1 << 20).maxNumberLength(64).build();

    /**
     * Doubles are read with Jackson's FastDoubleParser (the same correctly rounded value as
     * {@code Double.parseDouble}, several times faster): a record holds a dozen of them, and
     * {@code Double.parseDouble} was a fifth of the CPU a coordinator spent copying a peer's log.
     */
    public static final ObjectMapper JSON = configure(new ObjectMapper(JsonFactory.builder().streamReadConstraints(LIMITS)
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER).build()));

    private Protocol() {}

    public static ObjectMapper configure(ObjectMapper m) {
        // Type confusion is refused, not coerced: 3 is not a status, 1.5 is not a sample count.
        return m.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
                .configure(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS, true)
                .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
                .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);
    }

    public static String write(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + o.getClass().getSimpleName(), e);
        }
    }

    /**
     * Reads a message body, refusing other protocol versions.
     *
     * @throws ProtocolException with a message naming the field at fault
     */
    public static <T> T read(String json, Class<T> type) {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ProtocolException("body is not valid JSON: " + e.getOriginalMessage());
        }
        return read(node, type);
    }

    public static <T> T read(JsonNode node, Class<T> type) {
        if (node == null || !node.isObject()) throw new ProtocolException("body must be a JSON object");
        JsonNode v = node.get("v");
        if (v == null || !v.isInt()) throw new ProtocolException("v: protocol version is missing");
        if (!ACCEPTED.contains(v.intValue())) {
            throw new ProtocolException("v: protocol version " + v + " is not supported: this farm accepts " + ACCEPTED
                    + " (build " + BuildVersion.current() + "); run an agent of a matching version, or start it with --auto-update");
        }
        try {
            return JSON.treeToValue(node, type);
        } catch (com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
            throw new ProtocolException(fieldPath(e) + ": " + e.getOriginalMessage());
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new ProtocolException(type.getSimpleName() + ": " + (e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()));
        }
    }

    static String fieldPath(com.fasterxml.jackson.databind.JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        for (var ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (!b.isEmpty()) b.append('.');
                b.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                b.append('[').append(ref.getIndex()).append(']');
            }
        }
        return b.isEmpty() ? "body" : b.toString();
    }
}
