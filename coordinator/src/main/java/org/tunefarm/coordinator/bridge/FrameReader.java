package org.tunefarm.coordinator.bridge;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a connection's byte stream into frames: a 4-byte big-endian length, then that many bytes
 * (UTF-8 JSON, checked by the caller). Unlike the Vert.x bridge's parser, it refuses a declared
 * length outside {@code [1, maxFrameBytes]} as soon as the 4 bytes arrive, so a lying prefix can
 * never make the coordinator buffer without bound. After a fault the stream cannot be trusted to
 * be in step again, so the reader stays faulted and the connection is closed.
 */
final class FrameReader {

    /**
     * What one chunk of bytes yielded.
     *
     * @param frames the complete frame payloads, in order
     * @param fault  null, or why the stream must be closed; frames before the fault are still valid
     */
    record Result(List<Buffer> frames, String fault) {}

    private final int maxFrameBytes;
    private Buffer inbox = Buffer.buffer();
    private String fault;

    FrameReader(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    Result feed(Buffer chunk) {
        if (fault != null) return new Result(List.of(), fault);
        inbox.appendBuffer(chunk);
        List<Buffer> frames = new ArrayList<>();
        int pos = 0;
        while (inbox.length() - pos >= 4) {
            int len = inbox.getInt(pos);
            if (len < 1 || len > maxFrameBytes) {
                fault = "a frame declared " + Integer.toUnsignedString(len) + " bytes; frames are 1 to " + maxFrameBytes + " bytes";
                inbox = Buffer.buffer();
                return new Result(frames, fault);
            }
            if (inbox.length() - pos - 4 < len) break;
            frames.add(inbox.getBuffer(pos + 4, pos + 4 + len));
            pos += 4 + len;
        }
        if (pos > 0) inbox = inbox.getBuffer(pos, inbox.length());
        return new Result(frames, null);
    }

    /** Whether part of a frame is waiting for the rest: the connection's frame timer runs meanwhile. */
    boolean pending() {
        return fault == null && inbox.length() > 0;
    }
}
