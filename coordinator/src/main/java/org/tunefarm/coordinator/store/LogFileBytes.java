package org.tunefarm.coordinator.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.function.LongSupplier;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/** {@link LogBytes} of a log file, up to the length its writer says is durable. */
final class LogFileBytes implements LogBytes {
    /** Read a megabyte at a time: the digests of a long history read gigabytes, at the speed of the CRC instructions. */
    private static final int CHUNK = 1 << 20;

    private final Path file;
    private final LongSupplier durable;

    LogFileBytes(Path file, LongSupplier durable) {
        this.file = file;
        this.durable = durable;
    }

    @Override public long length() {
        return durable.getAsLong();
    }

    /** Sent per call: a stream of gigabytes reports progress this often. */
    private static final long TRANSFER = 64L << 20;

    @Override public long transferTo(long from, long to, java.nio.channels.WritableByteChannel out) throws IOException {
        long end = Math.min(to, durable.getAsLong());
        if (from < 0 || from > end) throw new IllegalArgumentException("no bytes from " + from + " to " + end);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            // The kernel copies from the page cache to the socket (sendfile), no byte through the heap.
            return in.transferTo(from, Math.min(TRANSFER, end - from), out);
        }
    }

    @Override public long[] lineBounds(long step) throws IOException {
        if (step < 1) throw new IllegalArgumentException("step must be at least 1, got " + step);
        long end = durable.getAsLong();
        long[] bounds = new long[(int) Math.min(Integer.MAX_VALUE - 8, end / step + 1)];
        int n = 0;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(64 * 1024);
            long last = 0;
            for (long k = step; k < end; k += step) {
                long at = Math.max(k, last);
                long bound = -1;
                while (bound < 0 && at < end) {
                    b.clear().limit((int) Math.min(b.capacity(), end - at));
                    int got = in.read(b, at);
                    if (got <= 0) throw new IOException(file + ": ends at " + at + ", before its durable length " + end);
                    for (int i = 0; i < got; i++) {
                        if (b.get(i) == '\n') {
                            bound = at + i + 1;
                            break;
                        }
                    }
                    at += got;
                }
                if (bound < 0 || bound >= end) break;
                if (bound > last) bounds[n++] = last = bound;
            }
        }
        bounds[n++] = end;
        return Arrays.copyOf(bounds, n);
    }

    @Override public long[] digests(long start, long[] bounds) throws IOException {
        long end = durable.getAsLong();
        long[] out = new long[bounds.length];
        int n = 0;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocateDirect(CHUNK);
            long from = start;
            for (long to : bounds) {
                if (to > end || to < from) break;
                CRC32C c = new CRC32C();
                CRC32 d = new CRC32();
                for (long at = from; at < to; ) {
                    b.clear().limit((int) Math.min(CHUNK, to - at));
                    readFully(in, b, at);
                    b.flip();
                    c.update(b.duplicate());
                    d.update(b);
                    at += b.limit();
                }
                out[n++] = c.getValue() << 32 | d.getValue();
                from = to;
            }
        }
        return Arrays.copyOf(out, n);
    }

    private void readFully(FileChannel in, ByteBuffer into, long at) throws IOException {
        long pos = at;
        while (into.hasRemaining()) {
            int got = in.read(into, pos);
            if (got < 0) throw new IOException(file + ": ends at " + pos + ", before its durable length");
            pos += got;
        }
    }
}
