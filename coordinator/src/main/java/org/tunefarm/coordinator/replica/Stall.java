package org.tunefarm.coordinator.replica;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Closes a blocking channel whose transfer has not moved for a while: a peer that died or was cut
 * off by a partition leaves a blocking read or write waiting forever, which closing the channel ends.
 */
final class Stall implements AutoCloseable {
    private static final ScheduledExecutorService WATCH = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stream-stall-watch");
        t.setDaemon(true);
        return t;
    });

    private volatile long lastMoved = System.nanoTime();
    private volatile boolean stalled;
    private final java.util.concurrent.ScheduledFuture<?> check;

    Stall(Closeable channel, long afterMs) {
        check = WATCH.scheduleWithFixedDelay(() -> {
            if (System.nanoTime() - lastMoved > TimeUnit.MILLISECONDS.toNanos(afterMs)) {
                stalled = true;
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // closing is all there is to do
                }
            }
        }, afterMs / 4, afterMs / 4, TimeUnit.MILLISECONDS);
    }

    /** Bytes moved: the transfer is alive. */
    void moved() {
        lastMoved = System.nanoTime();
    }

    /** Whether the channel was closed for want of progress. */
    boolean stalled() {
        return stalled;
    }

    @Override public void close() {
        check.cancel(false);
    }
}
