package org.tunefarm.agent.sensors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.tunefarm.measure.SensorReading;

class SensorsTest {

    @Test
    void readingsAreReusedWithinTheirLifetime() {
        AtomicInteger reads = new AtomicInteger();
        AtomicLong now = new AtomicLong();
        Sensors counting = () -> new SensorReading((double) reads.incrementAndGet(), null, null);
        Sensors memo = new MemoisedSensors(counting, Duration.ofMillis(200), now::get);

        assertEquals(1.0, memo.read().temperatureC());
        now.addAndGet(199_000_000);
        assertEquals(1.0, memo.read().temperatureC());
        now.addAndGet(1_000_000);
        assertEquals(2.0, memo.read().temperatureC());
        assertEquals(2, reads.get());
    }

    @Test
    void orFillsOnlyMissingFields() {
        Sensors sysfs = () -> new SensorReading(55.0, null, null);
        Sensors oshi = () -> new SensorReading(10.0, 2445.0, null);
        assertEquals(new SensorReading(55.0, 2445.0, null), sysfs.or(oshi).read());
    }

    @Test
    void oshiZeroDegreesMeansNoSensor() {
        assertNull(OshiSensors.celsiusOrNull(0.0));
        assertNull(OshiSensors.celsiusOrNull(Double.NaN));
        assertEquals(47.5, OshiSensors.celsiusOrNull(47.5));
    }

    @Test
    void thisMachineAlwaysAnswers() {
        SensorReading r = Sensors.forThisMachine().read();
        assertNotNull(r);
        if (r.temperatureC() != null) assertEquals(true, r.temperatureC() > 0);
    }
}
