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
     * Line starts near every multiple of {@code step}: for each, the offset just past the first
     * newline at or after it, up to the durable length (the last bound is that length).
     */
    long[] lineBounds(long step) throws IOException;

    /**
     * A 64-bit digest (CRC-32C and CRC-32 together) of each range between consecutive
     * {@code bounds}, the first from {@code from}, for as many ranges as the durable log covers: two
     * logs whose digests agree from 0 up to a bound hold the same bytes, hence the same records, up to it.
     */
    long[] digests(long from, long[] bounds) throws IOException;
}
