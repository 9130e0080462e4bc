package org.tunefarm.coordinator.replica;

import java.util.List;
import org.tunefarm.measure.Measurement;

/**
 * Records were made durable here, but no other coordinator confirmed its copy: the report must not
 * be acknowledged yet. Says which records this coordinator's log took, since a retry of the
 * report will find them stored and must still count them as the report's own.
 */
public final class NotReplicated extends Exception {
    private final transient List<Measurement> storedHere;

    NotReplicated(List<Measurement> storedHere, Throwable cause) {
        super(cause.getMessage(), cause);
        this.storedHere = List.copyOf(storedHere);
    }

    /** The records that were new to this coordinator's log. */
    public List<Measurement> storedHere() {
        return storedHere;
    }
}
