package org.tunefarm.agent.sensors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
    void theTripPointIsLookedForOnceAMinute() {
        AtomicInteger looks = new AtomicInteger();
        AtomicLong now = new AtomicLong();
        Sensors zones = new Sensors() {
            @Override public SensorReading read() { return SensorReading.NONE; }
            @Override public Double tripPointC() { return looks.incrementAndGet() == 1 ? null : 85.0; }
        };
        Sensors memo = new MemoisedSensors(zones, Duration.ofMillis(200), now::get);
        assertEquals(null, memo.tripPointC(), "a board without a trip point");
        now.addAndGet(MemoisedSensors.TRIP_POINT_TTL_NS - 1);
        assertEquals(null, memo.tripPointC(), "an absent trip point is kept too");
        now.addAndGet(1);
        assertEquals(85.0, memo.tripPointC(), "one written since is found after the minute");
        assertEquals(2, looks.get());
    }

    @Test
    void orFillsOnlyMissingFields() {
        Sensors sysfs = () -> new SensorReading(55.0, null, null);
        Sensors oshi = () -> new SensorReading(10.0, 2445.0, null);
        assertEquals(new SensorReading(55.0, 2445.0, null), sysfs.or(oshi).read());
    }

    @Test
    void theTripPointPassesThroughMemoAndFallback() {
        Sensors none = () -> SensorReading.NONE;
        Sensors tripped = new Sensors() {
            @Override public SensorReading read() { return SensorReading.NONE; }
            @Override public Double tripPointC() { return 99.0; }
        };
        assertEquals(99.0, Sensors.memoised(tripped, Duration.ofMillis(200)).tripPointC());
        assertEquals(99.0, none.or(tripped).tripPointC());
        assertNull(none.or(none).tripPointC());
    }

    @Test
    void aValueTravelsWithItsSourcesName() {
        Sensors sysfs = () -> new SensorReading(null, 1800.0, null, null, "scaling_cur_freq", null, 12.5, null);
        Sensors oshi = () -> new SensorReading(47.0, 2000.0, null, "oshi", "oshi", 2400.0, null, null);
        assertEquals(new SensorReading(47.0, 1800.0, null, "oshi", "scaling_cur_freq", 2400.0, 12.5, null), sysfs.or(oshi).read());
    }

    @Test
    void aConfiguredTreeIsReadWithoutThisMachinesOshi(@TempDir Path dir) throws Exception {
        Path script = FakeSysfs.vcgencmd(dir);
        Sensors pi = Sensors.forConfig(new SensorsConfig(FakeSysfs.tree("pi4"), null, script.toString()));
        assertEquals(new SensorReading(71.568, 1000.0, null, "thermal_zone0:cpu-thermal", "cpuinfo_cur_freq", 1800.0, null, 0x50005), pi.read());
        assertNull(pi.tripPointC());
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
