package org.tunefarm.coordinator.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.tunefarm.measure.Measurement;

/**
 * A JSON-lines file of measurements, appended and fsynced before an append is answered, so an
 * acknowledged record survives kill -9 and power loss. On open a torn last line (the process died
 * mid-write) is cut off: it was never acknowledged. Any other line that cannot be read is moved to
 * the {@link Quarantine} beside the log, byte for byte, and every record after it is kept (see
 * {@link LineScan}). Records of a newer version are read: unknown fields are ignored and an
 * unknown status is kept as it was written.
 *
 * <p><b>Group commit.</b> Appends are written by one thread ({@link GroupCommit}) in the order they
 * were called; each turn it writes every append queued since its last one and forces the file once,
 * then answers them all. So one fsync covers every report that arrived while the previous fsync
 * ran, and no append is answered before the fsync that covers its lines has returned. Readers
 * (replay, pages for other coordinators) see only what is durable.
 */
public final class RecordLog implements RecordStore {
    private static final Logger LOG = Logger.getLogger(RecordLog.class.getName());

    /** A record as the opening pass read it, with what the id table keeps of it, worked out where it was parsed. */
    private record Opened(Measurement record, long[] fingerprint, int version) {
        static Opened of(Measurement m) {
            return new Opened(m, RecordIds.fingerprint(m.recordId()), RecordIds.version(m));
        }
    }

    /** One call's records, already serialized on the caller's thread, and its answer. */
    private record Append(List<Measurement> measurements, List<String> lines, CompletableFuture<List<Measurement>> done) {}

    private final Path file;
    private final Quarantine quarantine;
    private final FileChannel channel;
    /**
     * Durable record ids and their versions, 16 bytes each: written by the writer thread once
     * forced, read by any thread, always under its own lock.
     */
    private final RecordIds ids;
    /** How many times the log was forced to disk: the figure group commit exists to keep low. */
    private final AtomicLong fsyncs = new AtomicLong();
    /** The length of the log that is fsynced; bytes past it may be written but are not yet answered. */
    private volatile long durable;
    /** Runs just before each force; a test holds it there to see that nothing is answered meanwhile. */
    private final Runnable beforeForce;
    private final GroupCommit<Append> commits;
    private final LogBytes bytes;

    /** The log's length when it was opened: {@code opened} handed every record before it to its reader. */
    private final long openedAt;

    public RecordLog(Path file) throws IOException {
        this(file, m -> {}, () -> {});
    }

    /**
     * Opens the log, reading it once: each readable record is handed to {@code opened}, in log order,
     * so everything derived from the records (tallies, the table, the searches) is built from this
     * one pass instead of a replay of its own. A record {@code opened} fails on is still kept: the
     * line is good, and only a line that cannot be read is quarantined.
     */
    public RecordLog(Path file, Consumer<Measurement> opened) throws IOException {
        this(file, opened, () -> {});
    }

    RecordLog(Path file, Runnable beforeForce) throws IOException {
        this(file, m -> {}, beforeForce);
    }

    private RecordLog(Path file, Consumer<Measurement> opened, Runnable beforeForce) throws IOException {
        this.file = file;
        this.quarantine = new Quarantine(file);
        this.beforeForce = beforeForce;
        // Sized from the log's length (records are some 800 bytes), so the start does not rehash.
        ids = new RecordIds(Files.exists(file) ? Files.size(file) / 700 : 0);
        long began = System.nanoTime();
        LineScan.open(file, quarantine, (line, from, length) -> Opened.of(MeasurementReader.read(line, from, length)), o -> {
            ids.add(o.fingerprint(), o.version());
            try {
                opened.accept(o.record());
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, file + ": a reader of the opened log failed on record " + o.record().recordId(), e);
            }
        }, Runtime.getRuntime().availableProcessors());
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        channel.position(channel.size());
        durable = channel.size();
        openedAt = durable;
        bytes = new LogFileBytes(file, () -> durable);
        LOG.info(() -> String.format("%s: opened %d records (%d bytes) in %.1f s", file, ids.size(), openedAt, (System.nanoTime() - began) / 1e9));
        commits = new GroupCommit<>("record-log-writer " + file.getFileName(), this::commit);
    }

    /** The log's length when it was opened, the end of what the opening pass handed on. */
    public long openedAt() {
        return openedAt;
    }

    /** Where this log keeps the lines it could not read. */
    public Quarantine quarantine() {
        return quarantine;
    }

    /** How many fsyncs appends have cost since this log was opened. */
    public long fsyncs() {
        return fsyncs.get();
    }

    private BufferedReader lines() throws IOException {
        return new BufferedReader(new java.io.InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8));
    }

    /** The lines are written on the caller's thread ({@link RecordStore#appendAsync(List)}), so the writer's turn between two fsyncs stays short. */
    @Override public CompletableFuture<List<Measurement>> appendAsync(List<Measurement> measurements, List<String> json) {
        if (json.size() != measurements.size()) throw new IllegalArgumentException(json.size() + " lines for " + measurements.size() + " records");
        Append a = new Append(List.copyOf(measurements), List.copyOf(json), new CompletableFuture<>());
        if (!commits.submit(a)) a.done().completeExceptionally(new IOException(file + " is closed"));
        return a.done();
    }

    /**
     * On the writer thread: writes the group's new records in call order, forces the file once, and
     * only then answers each append with its own new records. A failed write or force answers the
     * whole group with the failure, and none of its records counts as stored.
     */
    private void commit(List<Append> group) {
        List<List<Measurement>> fresh = new ArrayList<>(group.size());
        // Each new record's id, built once (from its kernel's id: a page of a peer's log is thousands).
        Map<String, Measurement> added = new LinkedHashMap<>();
        StringBuilder text = new StringBuilder();
        for (Append a : group) {
            List<Measurement> mine = new ArrayList<>();
            for (int i = 0; i < a.measurements().size(); i++) {
                Measurement m = a.measurements().get(i);
                String id = m.recordId();
                if (added.containsKey(id) || contains(id)) continue; // earlier in this group, or stored
                added.put(id, m);
                mine.add(m);
                text.append(a.lines().get(i)).append('\n');
            }
            fresh.add(mine);
        }
        try {
            if (!added.isEmpty()) {
                ByteBuffer buf = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
                while (buf.hasRemaining()) channel.write(buf);
                beforeForce.run();
                channel.force(false);
                fsyncs.incrementAndGet();
                synchronized (ids) {
                    for (Map.Entry<String, Measurement> e : added.entrySet()) ids.add(e.getKey(), RecordIds.version(e.getValue()));
                }
                durable = channel.position();
            }
        } catch (IOException | RuntimeException e) {
            LOG.severe(() -> file + ": an append of " + group.size() + " reports failed: " + e);
            for (Append a : group) a.done().completeExceptionally(e);
            return;
        }
        for (int i = 0; i < group.size(); i++) group.get(i).done().complete(fresh.get(i));
    }

    @Override public boolean contains(String recordId) {
        synchronized (ids) {
            return ids.contains(recordId);
        }
    }

    @Override public Integer storedVersion(String recordId) {
        synchronized (ids) {
            return ids.version(recordId);
        }
    }

    @Override public void replay(Consumer<Measurement> sink) throws IOException {
        long limit = durable;
        try (BufferedReader r = lines()) {
            String line;
            long offset = 0;
            while ((line = r.readLine()) != null && offset < limit) {
                offset += line.getBytes(StandardCharsets.UTF_8).length + 1;
                Measurement m;
                try {
                    m = MeasurementReader.read(line);
                } catch (IOException e) {
                    // Damaged since this log was opened: the next start quarantines it; the rest still counts.
                    long at = offset;
                    LOG.warning(() -> file + ": skipping an unreadable line ending at byte " + at + ": " + e.getMessage());
                    continue;
                }
                sink.accept(m);
            }
        }
    }

    @Override public RecordPage read(long from, int max) throws IOException {
        long end = durable;
        List<String> out = new ArrayList<>();
        long offset = Math.max(0, Math.min(from, end));
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            // Read in chunks and cut at newlines; a line split across chunks is carried over.
            ByteBuffer chunk = ByteBuffer.allocate(1 << 16);
            java.io.ByteArrayOutputStream carry = new java.io.ByteArrayOutputStream(1024);
            long at = offset;
            while (out.size() < max && at < end) {
                chunk.clear().limit((int) Math.min(chunk.capacity(), end - at));
                int n = in.read(chunk, at);
                if (n <= 0) break;
                byte[] b = chunk.array();
                int start = 0;
                for (int i = 0; i < n && out.size() < max; i++) {
                    if (b[i] != '\n') continue;
                    String text;
                    if (carry.size() == 0) {
                        text = new String(b, start, i - start, StandardCharsets.UTF_8);
                    } else {
                        carry.write(b, start, i - start);
                        text = carry.toString(StandardCharsets.UTF_8);
                        carry.reset();
                    }
                    start = i + 1;
                    offset = at + start;
                    if (!text.isBlank()) out.add(text);
                }
                if (out.size() >= max) break;
                carry.write(b, start, n - start);
                at += n;
            }
        }
        return new RecordPage(out, offset, end);
    }

    @Override public LogBytes bytes() {
        return bytes;
    }

    @Override public int count() {
        synchronized (ids) {
            return ids.size();
        }
    }

    /** Commits what is queued, then closes the file; appends after this fail. */
    @Override public void close() throws IOException {
        try {
            commits.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("closing " + file + ": interrupted while the last appends were committed");
        } finally {
            channel.close();
        }
    }
}
