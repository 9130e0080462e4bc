package org.tunefarm.measure;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.io.IOException;
import java.util.List;

/**
 * How a candidate's measurement ended. Only {@link #OK} measurements can win.
 *
 * <p>Not an enum, so that a record written by a newer version, with a status this version does not
 * know, is still read: it becomes an {@linkplain #known() unknown} status that keeps its name (and
 * is written back unchanged, to a replica or a rewritten log), never wins, and counts as a failure.
 * An agent may not send one: the coordinator refuses it. The known statuses are singletons, so
 * {@code ==} compares them.
 */
@JsonDeserialize(using = Status.Reader.class)
public final class Status {
    /** Ran, answer verified, timed. */
    public static final Status OK = new Status("OK", true);
    /** Ran, but its output differed from the reference beyond the error bound. */
    public static final Status WRONG_ANSWER = new Status("WRONG_ANSWER", true);
    /** The configuration is not valid for this shape or device (e.g. breaks a constraint). */
    public static final Status INVALID = new Status("INVALID", true);
    /** Exceeded the per-candidate timeout; the worker was killed. */
    public static final Status TIMEOUT = new Status("TIMEOUT", true);
    /** The worker died or the kernel threw. */
    public static final Status CRASH = new Status("CRASH", true);
    /** The kernel could not be built (command kernels). */
    public static final Status BUILD_FAILED = new Status("BUILD_FAILED", true);

    /**
     * Ran and verified, but the device was throttling (clock held down, too hot, sample times
     * drifting up): its time is the board's heat, not the candidate's. Re-taken after cooling; as it
     * stands it never wins. {@link Measurement#thermal()} says why.
     */
    public static final Status THROTTLED = new Status("THROTTLED", true);

    private static final List<Status> KNOWN = List.of(OK, WRONG_ANSWER, INVALID, TIMEOUT, CRASH, BUILD_FAILED, THROTTLED);
    /** Longer names are not a status from any version, but damage or a hostile body. */
    private static final int MAX_NAME = 64;

    private final String name;
    private final boolean known;

    private Status(String name, boolean known) {
        this.name = name;
        this.known = known;
    }

    /** The statuses this version knows. */
    public static List<Status> values() {
        return KNOWN;
    }

    /**
     * The status with this name: a known one, or an unknown one that keeps the name.
     *
     * @throws IllegalArgumentException for a name that no version writes (empty, too long, not [A-Z0-9_])
     */
    public static Status of(String name) {
        for (Status s : KNOWN) if (s.name.equals(name)) return s;
        if (name == null || name.isEmpty() || name.length() > MAX_NAME || !name.matches("[A-Z][A-Z0-9_]*")) {
            throw new IllegalArgumentException("not a status name: " + (name == null ? null : name.length() > MAX_NAME ? name.substring(0, MAX_NAME) + "..." : name));
        }
        return new Status(name, false);
    }

    /** The name as written in records, e.g. {@code OK}. */
    @JsonValue public String name() {
        return name;
    }

    /** Whether this version knows the status; an unknown one came from a newer version's record. */
    public boolean known() {
        return known;
    }

    @Override public boolean equals(Object o) {
        return o instanceof Status s && s.name.equals(name);
    }

    @Override public int hashCode() {
        return name.hashCode();
    }

    @Override public String toString() {
        return name;
    }

    /** Reads only a JSON string: 3 is not a status. */
    static final class Reader extends JsonDeserializer<Status> {
        @Override public Status deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) return (Status) ctxt.handleUnexpectedToken(Status.class, p);
            try {
                return of(p.getText());
            } catch (IllegalArgumentException e) {
                return (Status) ctxt.handleWeirdStringValue(Status.class, p.getText(), e.getMessage());
            }
        }
    }
}
