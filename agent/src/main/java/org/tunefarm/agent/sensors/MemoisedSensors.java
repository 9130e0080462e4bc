package org.tunefarm.agent.sensors;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.tunefarm.measure.SensorReading;

/** Reuses a reading for a short time: sysfs and OSHI reads cost milliseconds on small boards. */
final class MemoisedSensors implements Sensors {

    private final Sensors sensors;
    private final long ttlNs;
    private final LongSupplier nanoTime;
    private SensorReading last;
    private long readAt;

    MemoisedSensors(Sensors sensors, Duration ttl, LongSupplier nanoTime) {
        this.sensors = sensors;
        this.ttlNs = ttl.toNanos();
        this.nanoTime = nanoTime;
    }

    @Override
    public synchronized SensorReading read() {
        long now = nanoTime.getAsLong();
        if (last == null || now - readAt >= ttlNs) {
            last = sensors.read();
            readAt = now;
        }
        return last;
    }

    /** Not memoised: read once per measurement at most, and trip points are a few small files. */
    @Override
    public Double tripPointC() {
        return sensors.tripPointC();
    }
}
