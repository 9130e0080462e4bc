package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.tunefarm.measure.Measurement;

/**
 * Where measurements become durable. Records are the truth; the table is derived from them.
 * Appending is idempotent by {@link Measurement#recordId()}: a repeat is acknowledged, not stored twice.
 */
public interface RecordStore extends AutoCloseable {

    /**
     * Appends the measurements not yet stored and makes them durable before returning.
     *
     * @return the measurements that were new (in input order)
     */
    List<Measurement> append(List<Measurement> measurements) throws IOException;

    /** Whether a record with this id is stored. */
    boolean contains(String recordId);

    /** Replays every stored record, in append order. */
    void replay(Consumer<Measurement> sink) throws IOException;

    int count();

    /**
     * Reads up to {@code max} records that start at byte {@code from} or later (an offset a previous
     * page returned as {@code next}, or 0). Reads only that part of the log.
     */
    RecordPage read(long from, int max) throws IOException;

    @Override void close() throws IOException;
}
