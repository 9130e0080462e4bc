package org.tunefarm.agent.kernels.command;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Drains a process's stream on a daemon thread, keeping only the last {@code keep} bytes, so a
 * chatty program neither blocks on a full pipe nor fills the agent's memory.
 */
final class StreamTail {
    private final byte[] ring;
    private final Thread drainer;
    private long written;

    StreamTail(InputStream in, int keep, String threadName) {
        ring = new byte[keep];
        drainer = new Thread(() -> drain(in), threadName);
        drainer.setDaemon(true);
        drainer.start();
    }

    /** Waits for the end of the stream (every process holding it has exited), at most {@code ms}. */
    void awaitEnd(long ms) throws InterruptedException {
        drainer.join(ms);
    }

    private void drain(InputStream in) {
        byte[] buf = new byte[4096];
        try (in) {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) append(buf, n);
        } catch (IOException closed) {
            // the process is gone; what we have is the tail
        }
    }

    private synchronized void append(byte[] buf, int n) {
        for (int i = 0; i < n; i++) ring[(int) ((written + i) % ring.length)] = buf[i];
        written += n;
    }

    /** The last {@code maxBytes} (at most what is kept) as text. */
    synchronized String text(int maxBytes) {
        int n = (int) Math.min(Math.min(written, ring.length), maxBytes);
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) out[i] = ring[(int) ((written - n + i) % ring.length)];
        return new String(out, StandardCharsets.UTF_8);
    }
}
