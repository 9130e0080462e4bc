package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Another coordinator's record log arriving as bytes, written beside this coordinator's (empty) log
 * and put in its place only once whole: fsynced, renamed over, the folder fsynced. A start that
 * dies mid-copy leaves the log as empty as it was, and the next start copies again; the log is
 * never a part of a copy. The lines are not read here: opening the log reads every one, and
 * quarantines any it cannot read, as on any start.
 */
public final class IncomingLog implements AutoCloseable {
    private final Path log;
    private final Path part;
    private final FileChannel out;
    private long written;
    /** The last byte written: a whole log ends in a newline. */
    private byte last = '\n';

    /** Starts a copy for {@code log}, which must be absent or empty; a copy left by a start that died is discarded. */
    public IncomingLog(Path log) throws IOException {
        if (Files.exists(log) && Files.size(log) > 0) throw new IllegalStateException(log + " is not empty: a copy only seeds an empty log");
        this.log = log;
        this.part = partOf(log);
        Files.createDirectories(log.toAbsolutePath().getParent());
        out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    }

    /** Deletes what a start that died mid-copy left beside {@code log}, whether or not this start copies. */
    public static void discardLeftover(Path log) throws IOException {
        Files.deleteIfExists(partOf(log));
    }

    private static Path partOf(Path log) {
        return log.resolveSibling(log.getFileName() + ".incoming");
    }

    /** Appends the next bytes of the copy, all of {@code range} (position to limit). */
    public void append(ByteBuffer range) throws IOException {
        int n = range.remaining();
        if (n == 0) return;
        last = range.get(range.limit() - 1);
        while (range.hasRemaining()) out.write(range);
        written += n;
    }

    public long written() {
        return written;
    }

    /** Makes the copy the log: durable, then renamed over it; refused when it ends inside a line. */
    public void commit() throws IOException {
        if (last != '\n') throw new IOException("the copy ends inside a line (" + written + " bytes): not a whole log");
        out.force(true);
        out.close();
        Files.move(part, log, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Folder.sync(log);
    }

    /** Drops an unfinished copy; the log stays as it was. */
    @Override public void close() throws IOException {
        if (out.isOpen()) {
            out.close();
            Files.deleteIfExists(part);
        }
    }
}
