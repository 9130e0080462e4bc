package org.tunefarm.coordinator.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;

/**
 * Opens a JSON-lines log after a crash or a damaged disk without losing a readable line. Only a
 * torn last line (no newline: the process died mid-write, so it was never acknowledged) is cut.
 * Every other line that cannot be read goes, byte for byte, to the log's {@link Quarantine}, and
 * the log is rewritten without it (new file, fsync, rename over, fsync the folder).
 *
 * <p>Why a rewrite rather than skipping quarantined offsets on every start: the live log then holds
 * only readable lines, so everything else that reads it (replay, the copies to other coordinators,
 * an operator's tools) needs no knowledge of the damage, and a line is quarantined once. A start
 * that dies mid-way finds the same line at the same offset again, which the quarantine does not
 * add twice; the rename is atomic, so the log is either the old one or the repaired one.
 */
final class LineScan {
    private static final Logger LOG = Logger.getLogger(LineScan.class.getName());

    /** Reads one complete line; throws when it is not a line of this log. */
    interface LineReader {
        void read(String line) throws Exception;
    }

    /** A line that could not be read: where it was, its bytes, why. */
    private record Bad(long offset, byte[] bytes, String reason) {}

    private LineScan() {}

    /**
     * Reads a line as one value of {@code type}, refusing anything after it: two lines joined by a
     * lost newline must be quarantined, not read as the first of them.
     */
    static <T> T strict(String line, Class<T> type) throws java.io.IOException {
        return strictReader(type).readValue(line);
    }

    /** The reader {@link #strict} uses, for a caller that reads many lines (a reader is built once, not per line). */
    static com.fasterxml.jackson.databind.ObjectReader strictReader(Class<?> type) {
        return org.tunefarm.protocol.Protocol.JSON.readerFor(type).with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    /**
     * Creates the log if absent; otherwise reads every complete line through {@code reader}, cuts a
     * torn last line and quarantines the unreadable ones.
     *
     * @return how many lines were quarantined by this call
     */
    static int open(Path file, Quarantine quarantine, LineReader reader) throws IOException {
        Folder.create(file);
        List<Bad> bad = new ArrayList<>();
        long size = Files.size(file);
        long complete = 0;
        try (InputStream in = Files.newInputStream(file)) {
            // A line is read where it lies in the chunk; only one split across two chunks is copied.
            ByteArrayOutputStream carried = new ByteArrayOutputStream();
            byte[] chunk = new byte[1 << 16];
            long offset = 0;
            int n;
            while ((n = in.read(chunk)) > 0) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (chunk[i] != '\n') continue;
                    byte[] bytes = chunk;
                    int from = start;
                    int length = i - start;
                    if (carried.size() > 0) {
                        carried.write(chunk, start, i - start);
                        bytes = carried.toByteArray();
                        from = 0;
                        length = bytes.length;
                        carried.reset();
                    }
                    start = i + 1;
                    String reason = read(bytes, from, length, reader);
                    if (reason != null) bad.add(new Bad(offset, Arrays.copyOfRange(bytes, from, from + length), reason));
                    offset += length + 1;
                    complete = offset;
                }
                carried.write(chunk, start, n - start);
            }
        }
        if (complete < size) {
            long at = complete;
            LOG.warning(() -> file + ": dropping a torn last line at byte " + at + " (" + (size - at) + " bytes, no newline: never acknowledged)");
        }
        if (bad.isEmpty()) {
            if (complete < size) {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    ch.truncate(complete);
                    ch.force(true);
                }
            }
            return 0;
        }
        long now = System.currentTimeMillis();
        List<Quarantine.Entry> entries = new ArrayList<>();
        for (Bad x : bad) entries.add(Quarantine.Entry.of(x.offset(), x.bytes(), x.reason(), now));
        // The bytes are safe in the quarantine before the log loses them.
        quarantine.add(entries);
        for (Bad x : bad) {
            LOG.warning(() -> file + ": quarantined the unreadable line at byte " + x.offset() + " (" + x.bytes().length + " bytes) in "
                    + quarantine.file().getFileName() + ": " + x.reason());
        }
        rewrite(file, complete, bad);
        return bad.size();
    }

    /** Why a line cannot be read, or null when it can. */
    private static String read(byte[] bytes, int from, int length, LineReader reader) {
        String text;
        if (ascii(bytes, from, length)) {
            text = new String(bytes, from, length, StandardCharsets.ISO_8859_1); // ASCII is valid UTF-8, and this is a plain copy
        } else {
            try {
                text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, from, length)).toString();
            } catch (CharacterCodingException e) {
                return "invalid UTF-8";
            }
        }
        if (text.isBlank()) return "an empty line";
        try {
            reader.read(text);
            return null;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return "not a readable line: " + e.getOriginalMessage();
        } catch (Exception e) {
            return "not a readable line: " + e.getMessage();
        }
    }

    /** Whether every byte is ASCII: nearly every line of a log, whose text needs no decoding then. */
    private static boolean ascii(byte[] bytes, int from, int length) {
        for (int i = from, end = from + length; i < end; i++) if (bytes[i] < 0) return false;
        return true;
    }

    /** Copies the complete prefix without the bad lines to a new file that replaces the log. */
    private static void rewrite(Path file, long complete, List<Bad> bad) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".rewrite");
        try (FileChannel from = FileChannel.open(file, StandardOpenOption.READ);
             FileChannel to = FileChannel.open(next, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            long at = 0;
            for (Bad x : bad) {
                copy(from, to, at, x.offset());
                at = x.offset() + x.bytes().length + 1;
            }
            copy(from, to, at, complete);
            to.force(true);
        }
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Folder.sync(file);
    }

    private static void copy(FileChannel from, FileChannel to, long start, long end) throws IOException {
        long pos = start;
        while (pos < end) pos += from.transferTo(pos, end - pos, to);
    }
}
