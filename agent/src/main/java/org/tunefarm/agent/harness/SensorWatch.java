package org.tunefarm.agent.harness;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.measure.SensorReading;

/**
 * Reads the sensors while a measurement runs in the worker process, so the agent knows the clock
 * and temperature under load and the power or energy over the timed samples, not only before and
 * after. One daemon thread serves every watch of an agent, one watch at a time.
 */
public final class SensorWatch {

    /** How often the sensors are read under load (the agent's sensors are memoised for about 200 ms). */
    static final long PERIOD_MS = 50;

    private final Sensors sensors;
    private ScheduledExecutorService timer;

    public SensorWatch(Sensors sensors) {
        this.sensors = sensors;
    }

    /** Starts reading now and every {@link #PERIOD_MS}; {@link Watching#stop()} ends it with a last reading. */
    public synchronized Watching start() {
        if (timer == null) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "sensor-watch");
                t.setDaemon(true);
                return t;
            });
        }
        Watching w = new Watching();
        w.future = timer.scheduleAtFixedRate(w::take, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
        return w;
    }

    /** One measurement's readings. */
    public final class Watching {
        private final List<TimedReading> readings = new ArrayList<>();
        private ScheduledFuture<?> future;

        private void take() {
            SensorReading r;
            try {
                r = sensors.read();
            } catch (RuntimeException e) {
                return; // a failing sensor is absent
            }
            if (r == null) return;
            synchronized (readings) {
                readings.add(new TimedReading(nowMs(), r));
            }
        }

        /** The readings in time order, a last one taken now included. */
        public List<TimedReading> stop() {
            future.cancel(false);
            take();
            synchronized (readings) {
                return List.copyOf(readings);
            }
        }
    }

    static double nowMs() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1000.0 + now.getNano() / 1e6;
    }
}
