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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * A JSON-lines file of measurements, appended and fsynced before an append returns, so an
 * acknowledged record survives kill -9 and power loss. On open a torn last line (the process died
 * mid-write) is cut off: it was never acknowledged. Any other line that cannot be read is moved to
 * the {@link Quarantine} beside the log, byte for byte, and every record after it is kept (see
 * {@link LineScan}). Records of a newer version are read: unknown fields are ignored and an
 * unknown status is kept as it was written.
 */
public final class RecordLog implements RecordStore {
    private static final Logger LOG = Logger.getLogger(RecordLog.class.getName());

    private final Path file;
    private final Quarantine quarantine;
    private final FileChannel channel;
    private final Set<String> ids = new HashSet<>();
    /** How many times the log was forced to disk: the figure group commit exists to keep low. */
    private final java.util.concurrent.atomic.AtomicLong fsyncs = new java.util.concurrent.atomic.AtomicLong();

    public RecordLog(Path file) throws IOException {
        this.file = file;
        this.quarantine = new Quarantine(file);
        LineScan.open(file, quarantine, line -> ids.add(LineScan.strict(line, Measurement.class).recordId()));
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        channel.position(channel.size());
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

    @Override public synchronized List<Measurement> append(List<Measurement> measurements) throws IOException {
        List<Measurement> fresh = new ArrayList<>();
        Set<String> batch = new HashSet<>();
        StringBuilder text = new StringBuilder();
        for (Measurement m : measurements) {
            String id = m.recordId();
            if (ids.contains(id) || !batch.add(id)) continue;
            fresh.add(m);
            text.append(Protocol.write(m)).append('\n');
        }
        if (fresh.isEmpty()) return fresh;
        ByteBuffer buf = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
        while (buf.hasRemaining()) channel.write(buf);
        channel.force(false);
        fsyncs.incrementAndGet();
        ids.addAll(batch);
        return fresh;
    }

    @Override public synchronized boolean contains(String recordId) {
        return ids.contains(recordId);
    }

    @Override public void replay(Consumer<Measurement> sink) throws IOException {
        long limit;
        synchronized (this) {
            limit = channel.position();
        }
        try (BufferedReader r = lines()) {
            String line;
            long offset = 0;
            while ((line = r.readLine()) != null && offset < limit) {
                offset += line.getBytes(StandardCharsets.UTF_8).length + 1;
                Measurement m;
                try {
                    m = Protocol.JSON.readValue(line, Measurement.class);
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
        long end;
        synchronized (this) {
            end = channel.position();
        }
        List<Measurement> out = new ArrayList<>();
        long offset = Math.max(0, Math.min(from, end));
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
             var bytes = new java.io.BufferedInputStream(java.nio.channels.Channels.newInputStream(in.position(offset)), 1 << 16)) {
            java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream(512);
            long at = offset;
            int b;
            while (out.size() < max && at < end && (b = bytes.read()) >= 0) {
                at++;
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                String text = line.toString(StandardCharsets.UTF_8);
                line.reset();
                offset = at;
                if (text.isBlank()) continue;
                try {
                    out.add(Protocol.JSON.readValue(text, Measurement.class));
                } catch (IOException e) {
                    // An unreadable line stays where it is; a copy skips it rather than stall on it.
                    long here = at;
                    LOG.warning(() -> file + ": not copying an unreadable record before byte " + here + ": " + e.getMessage());
                }
            }
        }
        return new RecordPage(out, offset, end);
    }

    @Override public synchronized int count() {
        return ids.size();
    }

    @Override public synchronized void close() throws IOException {
        channel.close();
    }
}
