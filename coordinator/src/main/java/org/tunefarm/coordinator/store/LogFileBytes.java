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

    @Override public long[] lineBounds(long from, long step, int max) throws IOException {
        if (step < 1) throw new IllegalArgumentException("step must be at least 1, got " + step);
        long end = durable.getAsLong();
        if (from < 0 || from >= end || max < 1) return new long[0];
        long[] bounds = new long[(int) Math.min(Math.min(Integer.MAX_VALUE - 8, max), (end - from) / step + 1)];
        int n = 0;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(64 * 1024);
            if (from > 0) {
                b.limit(1);
                if (in.read(b, from - 1) != 1 || b.get(0) != '\n') return new long[0];
            }
            long last = from;
            for (long k = from + step; k < end; k += step) {
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
                if (n == bounds.length) return bounds;
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

    @Override public Long[] lineSums(long start, long[] bounds) throws IOException {
        long end = durable.getAsLong();
        int covered = 0;
        while (covered < bounds.length && bounds[covered] <= end) covered++;
        Long[] out = new Long[covered];
        if (covered == 0) return out;
        // Each line's hash is its CRC-32C and CRC-32 together, as the digests are: a sum that
        // agrees by accident is as unlikely as a digest that does, and both run at memory speed.
        CRC32C c = new CRC32C();
        CRC32 d = new CRC32();
        long sum = 0;
        long lineStart = start;
        int next = 0;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            long last = bounds[covered - 1];
            // Small: a round's sums are asked every few seconds, and a heap buffer of half a
            // region or more is a humongous object, which costs a collection of its own.
            ByteBuffer b = ByteBuffer.allocate((int) Math.max(1, Math.min(64 * 1024, last - start)));
            for (long at = start; at < last; ) {
                b.clear().limit((int) Math.min(b.capacity(), last - at));
                readFully(in, b, at);
                byte[] a = b.array();
                int n = b.limit();
                int from = 0;
                for (int i = 0; i < n; i++) {
                    if (a[i] != '\n') continue;
                    // A line ends here: the bounds up to it see the lines before it (a bound inside it is no line start).
                    long q = at + i;
                    for (; next < covered && bounds[next] <= q; next++) out[next] = bounds[next] == lineStart ? sum : null;
                    c.update(a, from, i - from);
                    d.update(a, from, i - from);
                    sum += c.getValue() << 32 | d.getValue();
                    c.reset();
                    d.reset();
                    from = i + 1;
                    lineStart = q + 1;
                }
                c.update(a, from, n - from);
                d.update(a, from, n - from);
                at += n;
            }
        }
        for (; next < covered; next++) out[next] = bounds[next] == lineStart ? sum : null;
        return out;
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
