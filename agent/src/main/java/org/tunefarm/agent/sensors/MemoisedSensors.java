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
    /** How long a trip point found is used before it is looked for again. */
    static final long TRIP_POINT_TTL_NS = 60_000_000_000L;
    private boolean tripRead;
    private Double trip;
    private long tripReadAt;

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

    /**
     * Kept for {@link #TRIP_POINT_TTL_NS}: a board's trip points are its configuration, not a
     * reading, and finding them walks every thermal zone (0.26 ms a measurement on an x86 VM, time
     * the board spent between candidates; more on a board whose sysfs is slow). An operator who
     * writes a new one sees it used within the minute.
     */
    @Override
    public synchronized Double tripPointC() {
        long now = nanoTime.getAsLong();
        if (!tripRead || now - tripReadAt >= TRIP_POINT_TTL_NS) {
            trip = sensors.tripPointC();
            tripRead = true;
            tripReadAt = now;
        }
        return trip;
    }
}
