package org.tunefarm.coordinator.store;

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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
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

    /**
     * Reads one complete line, {@code line[from, from + length)}, as a value, on any thread; throws
     * when it is not a line of this log. The bytes are valid UTF-8 (checked before), so a JSON
     * parser reads them as they lie, with no string made of them first.
     */
    interface LineParser<T> {
        T parse(byte[] line, int from, int length) throws Exception;
    }

    /**
     * How many bytes of lines a worker parses at a time (a longer line gets a block of its own):
     * some 300 records, and under half of G1's smallest region, so a block is no humongous object.
     */
    private static final int BLOCK = 1 << 18;

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
        return open(file, quarantine, (line, from, length) -> {
            reader.read(new String(line, from, length, StandardCharsets.UTF_8));
            return Boolean.TRUE;
        }, x -> {}, 0);
    }

    /**
     * {@link #open(Path, Quarantine, LineReader)} for a long log: {@code parser} reads the lines on
     * {@code threads} worker threads, a block of lines each, while the calling thread hands each
     * value to {@code accept} in log order. With 0 threads the calling thread parses too.
     *
     * <p>Why blocks and not lines: a worker's share is a quarter megabyte of lines found by one scan, so
     * the calling thread only reads the file and keeps what everything derived from the records
     * (ids, tallies, searches) must keep in order; a record's parse, the larger part of a start on a
     * long history, is spread over the machine's cores.
     */
    static <T> int open(Path file, Quarantine quarantine, LineParser<T> parser, Consumer<? super T> accept, int threads) throws IOException {
        Folder.create(file);
        List<Bad> bad = new ArrayList<>();
        long size = Files.size(file);
        long complete = 0;
        ExecutorService workers = threads <= 0 ? null : Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "log-parse " + file.getFileName());
            t.setDaemon(true);
            return t;
        });
        // Parsed blocks wait here in log order; a few per worker keep every worker busy, and no more
        // are read ahead, so the memory a start holds stays bounded.
        ArrayDeque<Future<Parsed<T>>> ahead = new ArrayDeque<>();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] carried = new byte[0];
            long offset = 0;
            boolean eof = false;
            while (!eof) {
                byte[] block = Arrays.copyOf(carried, Math.max(BLOCK, carried.length * 2));
                int filled = carried.length;
                while (filled < block.length) {
                    int n = in.read(block, filled, block.length - filled);
                    if (n < 0) {
                        eof = true;
                        break;
                    }
                    filled += n;
                }
                int end = filled;
                while (end > 0 && block[end - 1] != '\n') end--;
                // No newline in a whole block: a line longer than a block, read on into a larger one.
                if (end == 0 && !eof) {
                    carried = Arrays.copyOf(block, filled);
                    continue;
                }
                carried = Arrays.copyOfRange(block, end, filled);
                if (end == 0) continue;
                long at = offset;
                int length = end;
                if (workers == null) {
                    drain(parse(block, length, at, parser), accept, bad);
                } else {
                    if (ahead.size() >= 2 * threads + 1) drain(await(ahead.poll()), accept, bad);
                    ahead.add(workers.submit(() -> parse(block, length, at, parser)));
                }
                offset += end;
                complete = offset;
            }
            while (!ahead.isEmpty()) drain(await(ahead.poll()), accept, bad);
        } finally {
            if (workers != null) workers.shutdownNow();
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

    /** The lines of one block: each readable line's value in order, and the lines that were not. */
    private record Parsed<T>(List<T> values, List<Bad> bad) {}

    /** Parses the complete lines of {@code block[0, length)}, which starts at byte {@code offset} of the log. */
    private static <T> Parsed<T> parse(byte[] block, int length, long offset, LineParser<T> parser) {
        List<T> values = new ArrayList<>();
        List<Bad> bad = new ArrayList<>(0);
        int start = 0;
        for (int i = 0; i < length; i++) {
            if (block[i] != '\n') continue;
            int n = i - start;
            String reason = unreadable(block, start, n);
            if (reason == null) {
                try {
                    values.add(parser.parse(block, start, n));
                } catch (Exception e) {
                    reason = refused(e);
                }
            }
            if (reason != null) bad.add(new Bad(offset + start, Arrays.copyOfRange(block, start, i), reason));
            start = i + 1;
        }
        return new Parsed<>(values, bad);
    }

    private static <T> void drain(Parsed<T> parsed, Consumer<? super T> accept, List<Bad> bad) {
        for (T value : parsed.values()) accept.accept(value);
        bad.addAll(parsed.bad());
    }

    private static <T> Parsed<T> await(Future<Parsed<T>> parsed) throws IOException {
        try {
            return parsed.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while opening a log");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IOException(e.getCause());
        }
    }

    /** Why a line cannot be read as text (invalid UTF-8, or blank), or null when it can. */
    private static String unreadable(byte[] bytes, int from, int length) {
        if (ascii(bytes, from, length)) {
            for (int i = from, end = from + length; i < end; i++) if (!Character.isWhitespace((char) bytes[i])) return null;
            return "an empty line";
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, from, length)).toString();
            return text.isBlank() ? "an empty line" : null;
        } catch (CharacterCodingException e) {
            return "invalid UTF-8";
        }
    }

    /** Why the parser refused a line. */
    private static String refused(Exception e) {
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j) return "not a readable line: " + j.getOriginalMessage();
        return "not a readable line: " + e.getMessage();
    }

    /** Whether every byte is ASCII: nearly every line of a log, whose text needs no decoding then. */
    private static boolean ascii(byte[] bytes, int from, int length) {
        // Eight bytes a step: a start checks every byte of the log, and a byte-wise loop that may
        // leave early is not vectorised.
        int i = from, end = from + length;
        long high = 0;
        for (; i + 8 <= end; i += 8) high |= (long) LONGS.get(bytes, i);
        for (; i < end; i++) high |= bytes[i];
        return (high & 0x8080_8080_8080_8080L) == 0;
    }

    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class,
            java.nio.ByteOrder.LITTLE_ENDIAN);

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
