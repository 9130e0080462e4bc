package org.tunefarm.coordinator.replica;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.tunefarm.coordinator.store.LogBytes;
import org.tunefarm.coordinator.store.RecordPage;
import org.tunefarm.coordinator.store.RecordStore;
import org.tunefarm.measure.Measurement;

/**
 * A record store that notices a candidate measured twice: the two halves of a partition (or a
 * late report after a takeover) may each measure the same candidate. The log keeps the first
 * record it got, as it must, and this counts the candidates whose other measurement arrived too.
 * A copy of the very same measurement (same agent, same times) is not a second measurement.
 */
public final class VersionedRecords implements RecordStore {
    private final RecordStore log;
    /**
     * Versions noted as their append was queued and not yet durable: the log keeps the versions of
     * the durable ones ({@link RecordStore#storedVersion}), so this holds only what is in flight
     * (and what a failed append left, whose retry is the same version).
     */
    private final Map<String, Integer> queued = new HashMap<>();
    private final Set<String> measuredTwice = new HashSet<>();

    /** Reads nothing: the log knows the version of every record it holds since it was opened. */
    public VersionedRecords(RecordStore log) throws IOException {
        this.log = log;
    }

    /** Which measurement a record is, as opposed to which candidate: who took it, and when. */
    public static int version(Measurement m) {
        return RecordStore.version(m);
    }

    /**
     * Notes each measurement's version as it is queued, under this lock: the log keeps records in
     * the order appends are queued, so the first version noted is the one the log keeps, even while
     * an earlier append still waits for its fsync. (One whose append then fails stays noted: it was
     * seen, and its retry is the same version.)
     */
    @Override public synchronized CompletableFuture<List<Measurement>> appendAsync(List<Measurement> measurements, List<String> json) {
        List<String> noted = new ArrayList<>();
        for (Measurement m : measurements) {
            String id = m.recordId();
            Integer kept = queued.get(id);
            if (kept == null) kept = log.storedVersion(id);
            if (kept == null) {
                queued.put(id, version(m));
                noted.add(id);
            } else if (kept != version(m)) {
                measuredTwice.add(id);
            }
        }
        return log.appendAsync(measurements, json).whenComplete((fresh, failed) -> {
            if (failed == null) forget(noted);
        });
    }

    /** Durable now: the log keeps their versions. */
    private synchronized void forget(List<String> ids) {
        for (String id : ids) queued.remove(id);
    }

    /** Candidates (record ids) of which this coordinator has seen two different measurements. */
    public synchronized int measuredTwice() {
        return measuredTwice.size();
    }

    @Override public boolean contains(String recordId) {
        return log.contains(recordId);
    }

    @Override public Integer storedVersion(String recordId) {
        synchronized (this) {
            Integer v = queued.get(recordId);
            if (v != null) return v;
        }
        return log.storedVersion(recordId);
    }

    @Override public void replay(Consumer<Measurement> sink) throws IOException {
        log.replay(sink);
    }

    @Override public LogBytes bytes() {
        return log.bytes();
    }

    @Override public int count() {
        return log.count();
    }

    @Override public RecordPage read(long from, int max) throws IOException {
        return log.read(from, max);
    }

    @Override public void close() throws IOException {
        log.close();
    }
}
