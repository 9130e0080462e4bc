package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import com.fasterxml.jackson.databind.JsonNode;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.protocol.Protocol;

/**
 * The sweeps a coordinator accepted, one JSON line each, fsynced before the sweep is acknowledged,
 * so a restarted farm knows what it was asked to do and resumes it from the record log. Operators'
 * changes to a sweep (pause, resume, cancel, priority) are lines of the same file,
 * {@code {"control": {...}}}, so the sweeps and their changes travel and restore together.
 */
public final class SweepLog {
    private static final Logger LOG = Logger.getLogger(SweepLog.class.getName());

    private static final String CONTROL = "control";

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
        write(Protocol.write(e));
    }

    /** Keeps an operator's change unless the same change is already kept (copies arrive more than once). */
    public synchronized void appendIfAbsent(SweepControl c) throws IOException {
        if (controls().contains(c)) return;
        write(Protocol.write(java.util.Map.of(CONTROL, c)));
    }

    private void write(String line) throws IOException {
        try (var ch = java.nio.channels.FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(java.nio.ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
            ch.force(false);
        }
    }

    /** The accepted sweeps, in the order they were kept. */
    public synchronized List<Entry> read() throws IOException {
        List<Entry> out = new ArrayList<>();
        for (JsonNode n : lines()) {
            if (n.has(CONTROL)) continue;
            try {
                out.add(Protocol.JSON.treeToValue(n, Entry.class));
            } catch (IOException ex) {
                LOG.warning(() -> file + ": skipping an unreadable sweep line: " + ex.getMessage());
            }
        }
        return out;
    }

    /** The operators' changes, in the order they were accepted (by the leader's clock, then as kept). */
    public synchronized List<SweepControl> controls() throws IOException {
        List<SweepControl> out = new ArrayList<>();
        for (JsonNode n : lines()) {
            if (!n.has(CONTROL)) continue;
            try {
                out.add(Protocol.JSON.treeToValue(n.get(CONTROL), SweepControl.class));
            } catch (IOException ex) {
                LOG.warning(() -> file + ": skipping an unreadable sweep change: " + ex.getMessage());
            }
        }
        out.sort(java.util.Comparator.comparingLong(SweepControl::at)); // stable: equal times keep their order
        return out;
    }

    private List<JsonNode> lines() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.exists(file)) return out;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) continue;
            try {
                out.add(Protocol.JSON.readTree(line));
            } catch (IOException ex) {
                LOG.warning(() -> file + ": skipping an unreadable (torn) sweep line");
            }
        }
        return out;
    }
}
