package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * Where measurements become durable. Records are the truth; the table is derived from them.
 * Appending is idempotent by {@link Measurement#recordId()}: a repeat is acknowledged, not stored twice.
 */
public interface RecordStore extends AutoCloseable {

    /**
     * Appends the measurements not yet stored, after those of every earlier call, without waiting:
     * the answer comes once they are durable (the log's group commit may cover several calls with
     * one fsync). It completes on the store's writer thread, so a caller on an event loop hands it
     * back to its own context.
     *
     * @return the measurements that were new (in input order), or the failure that kept them from disk
     */
    default CompletableFuture<List<Measurement>> appendAsync(List<Measurement> measurements) {
        List<String> json = new ArrayList<>(measurements.size());
        for (Measurement m : measurements) json.add(Protocol.write(m));
        return appendAsync(measurements, json);
    }

    /**
     * {@link #appendAsync(List)} with each measurement's JSON text at hand, one line each (no line
     * break in it), which the log writes as the record's line: a record a leader sends on to its
     * replica, or a replica received as text, is not written out twice.
     */
    CompletableFuture<List<Measurement>> appendAsync(List<Measurement> measurements, List<String> json);

    /**
     * Appends the measurements not yet stored and makes them durable before returning: {@link
     * #appendAsync}, waited for (worker threads only).
     *
     * @return the measurements that were new (in input order)
     */
    default List<Measurement> append(List<Measurement> measurements) throws IOException {
        return durable(appendAsync(measurements));
    }

    /** {@link #append(List)} with each measurement's JSON line at hand ({@link #appendAsync(List, List)}). */
    default List<Measurement> append(List<Measurement> measurements, List<String> json) throws IOException {
        return durable(appendAsync(measurements, json));
    }

    private static List<Measurement> durable(CompletableFuture<List<Measurement>> append) throws IOException {
        try {
            return append.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for an append to be durable");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            throw new IOException(e.getCause().getMessage(), e.getCause());
        }
    }

    /** Whether a record with this id is stored. */
    boolean contains(String recordId);

    /**
     * Which measurement is stored under this id ({@link #version}), or null when none is: two
     * measurements of one candidate differ in it.
     */
    Integer storedVersion(String recordId);

    /** Which measurement a record is, as opposed to which candidate: who took it, and when. */
    static int version(Measurement m) {
        return RecordIds.version(m);
    }

    /** Replays every stored record, in append order. */
    void replay(Consumer<Measurement> sink) throws IOException;

    int count();

    /** The log as bytes, for a copy of a long history that needs no line parsed on the sending side ({@link LogBytes}). */
    LogBytes bytes();

    /**
     * Reads up to {@code max} records that start at byte {@code from} or later (an offset a previous
     * page returned as {@code next}, or 0), as their lines. Reads only that part of the log.
     */
    RecordPage read(long from, int max) throws IOException;

    @Override void close() throws IOException;
}
