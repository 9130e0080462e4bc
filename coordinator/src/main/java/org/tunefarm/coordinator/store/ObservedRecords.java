package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.tunefarm.measure.Measurement;

/**
 * A record store that says what it made durable, and how long that took. Every record reaches a
 * coordinator's log through its one store (the leader's own appends, copies from the leader,
 * catching up), so watching the store sees each record once, on every coordinator.
 */
public final class ObservedRecords implements RecordStore {

    /** Told after each append; called on the appending thread (a worker), so it must be thread-safe. */
    public interface Observer {
        /**
         * @param fresh the records that were new and are now durable (may be empty)
         * @param nanos how long from the call until the records were durable (the wait for the group's fsync included)
         */
        void appended(List<Measurement> fresh, long nanos);
    }

    private final RecordStore store;
    private final Observer observer;

    public ObservedRecords(RecordStore store, Observer observer) {
        this.store = store;
        this.observer = observer;
    }

    @Override public CompletableFuture<List<Measurement>> appendAsync(List<Measurement> measurements, List<String> json) {
        long start = System.nanoTime();
        return store.appendAsync(measurements, json).thenApply(fresh -> {
            observer.appended(fresh, System.nanoTime() - start);
            return fresh;
        });
    }

    @Override public boolean contains(String recordId) {
        return store.contains(recordId);
    }

    @Override public Integer storedVersion(String recordId) {
        return store.storedVersion(recordId);
    }

    @Override public void replay(Consumer<Measurement> sink) throws IOException {
        store.replay(sink);
    }

    @Override public RecordPage read(long from, int max) throws IOException {
        return store.read(from, max);
    }

    @Override public LogBytes bytes() {
        return store.bytes();
    }

    @Override public int count() {
        return store.count();
    }

    @Override public void close() throws IOException {
        store.close();
    }
}
