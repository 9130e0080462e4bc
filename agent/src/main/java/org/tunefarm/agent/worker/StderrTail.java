package org.tunefarm.agent.worker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Drains a worker's stderr on a daemon thread, keeping the last few KiB for crash reports.
 * Draining matters as much as keeping: a full pipe would block a chatty kernel.
 */
final class StderrTail {

    private static final int KEEP = 8192;
    private final byte[] ring = new byte[KEEP];
    private final Thread drainer;
    private long written;

    StderrTail(InputStream stderr, String threadName) {
        drainer = new Thread(() -> drain(stderr), threadName);
        drainer.setDaemon(true);
        drainer.start();
    }

    /** Waits until the stream has ended (the process and its children closed it), at most {@code ms}. */
    void awaitEnd(long ms) {
        try {
            drainer.join(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
        for (int i = 0; i < n; i++) ring[(int) ((written + i) % KEEP)] = buf[i];
        written += n;
    }

    /** The last {@code maxChars} or so of what the worker wrote. */
    synchronized String tail(int maxChars) {
        int n = (int) Math.min(Math.min(written, KEEP), maxChars);
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) out[i] = ring[(int) ((written - n + i) % KEEP)];
        return new String(out, StandardCharsets.UTF_8).strip();
    }
}
