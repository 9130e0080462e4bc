package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.protocol.Protocol;

/**
 * The sweeps a coordinator accepted, one JSON line each, fsynced before the sweep is acknowledged,
 * so a restarted farm knows what it was asked to do and resumes it from the record log.
 */
public final class SweepLog {
    private static final Logger LOG = Logger.getLogger(SweepLog.class.getName());

    /** One accepted sweep. */
    public record Entry(String id, long createdAt, SweepSpec spec) {}

    private final Path file;

    public SweepLog(Path file) throws IOException {
        this.file = file;
        Files.createDirectories(file.toAbsolutePath().getParent());
    }

    /** Appends a sweep unless one with its id is already kept (copies arrive more than once). */
    public synchronized void appendIfAbsent(Entry e) throws IOException {
        for (Entry x : read()) if (x.id().equals(e.id())) return;
        append(e);
    }

    public synchronized void append(Entry e) throws IOException {
        try (var ch = java.nio.channels.FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(java.nio.ByteBuffer.wrap((Protocol.write(e) + "\n").getBytes(StandardCharsets.UTF_8)));
            ch.force(false);
        }
    }

    public synchronized List<Entry> read() throws IOException {
        List<Entry> out = new ArrayList<>();
        if (!Files.exists(file)) return out;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) continue;
            try {
                out.add(Protocol.JSON.readValue(line, Entry.class));
            } catch (IOException ex) {
                LOG.warning(() -> file + ": skipping an unreadable (torn) sweep line");
            }
        }
        return out;
    }
}
