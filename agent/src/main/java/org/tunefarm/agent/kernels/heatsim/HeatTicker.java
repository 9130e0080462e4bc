package org.tunefarm.agent.kernels.heatsim;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Ticks a {@link HeatDevice} on a daemon thread, so that it cools at rest and its sysfs stays current. */
public final class HeatTicker implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(HeatTicker.class.getName());

    private final ScheduledExecutorService timer;

    public HeatTicker(HeatDevice device, long periodMs) {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "heatsim-ticker");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(() -> {
            try {
                device.tick();
            } catch (RuntimeException e) { // a full disk: say so, keep ticking
                LOG.log(Level.WARNING, "heatsim: tick failed: " + e.getMessage());
            }
        }, 0, periodMs, TimeUnit.MILLISECONDS);
    }

    /** Stops ticking; returns once a tick under way has finished writing. */
    @Override public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
