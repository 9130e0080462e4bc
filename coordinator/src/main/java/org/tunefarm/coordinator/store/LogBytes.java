package org.tunefarm.coordinator.store;

import java.io.IOException;

/**
 * A record log read as bytes, never parsed: what another coordinator copies a long history through.
 * Only the durable part of the log is read, which ends at a line's end.
 */
public interface LogBytes {

    /** The log's durable length: everything before it is fsynced and ends in a newline. */
    long length();

    /**
     * Sends the log's bytes from {@code from} towards {@code to} (at most the durable length) into
     * {@code out}, some of them (a few megabytes) per call, so the caller sees progress.
     *
     * @return how many bytes were sent
     */
    long transferTo(long from, long to, java.nio.channels.WritableByteChannel out) throws IOException;

    /**
     * Line starts every {@code step} bytes or so from {@code from}: for each {@code from + k * step},
     * the offset just past the first newline at or after it, up to the durable length (the last
     * bound is that length), and at most {@code max} of them. Empty when {@code from} is not a line
     * start of this log (nor 0) or not before its durable length: no whole lines begin there to compare.
     */
    long[] lineBounds(long from, long step, int max) throws IOException;

    /**
     * A 64-bit digest (CRC-32C and CRC-32 together) of each range between consecutive
     * {@code bounds}, the first from {@code from}, for as many ranges as the durable log covers: two
     * logs whose digests agree from 0 up to a bound hold the same bytes, hence the same records, up to it.
     */
    long[] digests(long from, long[] bounds) throws IOException;

    /**
     * For each of {@code bounds} (increasing, past {@code from}), the sum (modulo 2^64) of a hash
     * of each whole line that starts at or after {@code from} and ends by that bound: equal sums
     * mean the same lines, in whatever order. Null where the bound is not a line start here; the
     * result ends with the last bound the durable log covers. {@code from} must be a line start.
     * Two logs that take the same records in a slightly different order (a leader's and its
     * replica's) agree on these where their bytes no longer do.
     */
    Long[] lineSums(long from, long[] bounds) throws IOException;
}
