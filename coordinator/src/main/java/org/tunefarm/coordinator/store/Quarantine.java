package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.logging.Logger;
import org.tunefarm.protocol.Protocol;

/**
 * The file beside a log ({@code records.jsonl.quarantine}) that keeps the lines taken out of it
 * because they could not be read: a flipped byte, a disk error, invalid UTF-8, a record of a
 * newer version. Each is kept byte for byte (base64, since the bytes need not be text), with its
 * offset in the log it was taken from and why, so an operator can repair and re-append it.
 * Entries are only added, fsynced, and never twice for the same offset and bytes.
 */
public final class Quarantine {
    private static final Logger LOG = Logger.getLogger(Quarantine.class.getName());

    /**
     * One quarantined line.
     *
     * @param offset        where the line began in the log, in bytes, when it was taken out
     * @param length        its length in bytes, without the newline
     * @param reason        why it could not be read
     * @param quarantinedAt epoch ms
     * @param base64        the line's exact bytes, without the newline
     */
    public record Entry(long offset, int length, String reason, long quarantinedAt, String base64) {
        static Entry of(long offset, byte[] line, String reason, long now) {
            return new Entry(offset, line.length, reason, now, Base64.getEncoder().encodeToString(line));
        }

        /** The line's bytes, exactly as they were in the log. */
        public byte[] bytes() {
            return Base64.getDecoder().decode(base64);
        }

        boolean sameLine(Entry o) {
            return offset == o.offset && base64.equals(o.base64);
        }
    }

    /** Local shared-data map where a coordinator keeps how many lines its logs hold in quarantine ("lines"), for /api/health. */
    public static final String COUNTS = "tunefarm.quarantine";

    private final Path file;

    /** The quarantine of the log at {@code log}. */
    public Quarantine(Path log) {
        this.file = log.resolveSibling(log.getFileName() + ".quarantine");
    }

    public Path file() {
        return file;
    }

    /** Every entry kept; a line of the quarantine file that is itself unreadable is skipped. */
    public synchronized List<Entry> entries() throws IOException {
        List<Entry> out = new ArrayList<>();
        if (!Files.exists(file)) return out;
        for (String line : new String(Files.readAllBytes(file), StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank()) continue;
            try {
                out.add(Protocol.JSON.readValue(line, Entry.class));
            } catch (IOException e) {
                LOG.warning(() -> file + ": an unreadable quarantine entry: " + e.getMessage());
            }
        }
        return out;
    }

    public int count() throws IOException {
        return entries().size();
    }

    /**
     * Keeps the lines not kept yet. A start that died between quarantining a line and rewriting
     * the log finds the same line at the same offset again: it is not added a second time.
     *
     * @return how many were new
     */
    synchronized int add(List<Entry> lines) throws IOException {
        List<Entry> held = entries();
        StringBuilder text = new StringBuilder();
        int added = 0;
        for (Entry e : lines) {
            if (held.stream().anyMatch(e::sameLine)) continue;
            held.add(e);
            text.append(Protocol.write(e)).append('\n');
            added++;
        }
        if (added == 0) return 0;
        boolean created = !Files.exists(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ByteBuffer buf = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
            while (buf.hasRemaining()) ch.write(buf);
            ch.force(true);
        }
        if (created) Folder.sync(file);
        return added;
    }

    @Override public String toString() {
        return file.toString();
    }
}
