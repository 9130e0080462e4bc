package org.tunefarm.agent.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.measure.SensorReading;

/** The gate on a fake board that cools 1 °C per second of a fake clock: no real waiting. */
class CooldownGateTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final CooldownGate.Sleeper sleeper = ms -> now.addAndGet(ms);

    private Sensors cooling(double fromC) {
        long start = now.get();
        return () -> new SensorReading(fromC - (now.get() - start) / 1000.0, 1500.0, null);
    }

    @Test
    void waitsUntilBelowTheStartTemperature() {
        CooldownGate gate = new CooldownGate(cooling(60), 50.0, 120_000, now::get, sleeper);
        CooldownGate.Cooldown c = gate.await();
        assertFalse(c.timedOut());
        assertTrue(c.temperatureC() < 50, "cooled below 50: " + c.temperatureC());
        assertTrue(c.waitedMs() > 10_000 && c.waitedMs() <= 10_000 + CooldownGate.POLL_MS, "about 10 s at 1 °C/s: " + c.waitedMs());
    }

    @Test
    void aCoolBoardDoesNotWait() {
        CooldownGate.Cooldown c = new CooldownGate(cooling(45), 50.0, 120_000, now::get, sleeper).await();
        assertEquals(new CooldownGate.Cooldown(45.0, 0, false), c);
    }

    @Test
    void givesUpAtTheTimeoutAndSaysSo() {
        CooldownGate.Cooldown c = new CooldownGate(cooling(90), 50.0, 5_000, now::get, sleeper).await();
        assertTrue(c.timedOut());
        assertEquals(5_000, c.waitedMs());
        assertTrue(c.temperatureC() > 50);
    }

    @Test
    void withoutAThermometerThereIsNothingToWaitFor() {
        CooldownGate.Cooldown none = new CooldownGate(Sensors.NONE, 50.0, 120_000, now::get, sleeper).await();
        assertEquals(CooldownGate.Cooldown.NONE, none);
        CooldownGate.Cooldown noStart = new CooldownGate(cooling(80), null, 120_000, now::get, sleeper).await();
        assertEquals(0, noStart.waitedMs(), "no start temperature (no idle reading at start): no gate");
        Sensors broken = () -> {
            throw new IllegalStateException("i2c bus hung");
        };
        assertNull(new CooldownGate(broken, 50.0, 120_000, now::get, sleeper).await().temperatureC());
    }

    @Test
    void theDefaultStartTemperatureIsTheIdleReadingPlusTheMargin() {
        assertEquals(47.5, ThermalSettings.DEFAULTS.startTemperature(42.5));
        assertNull(ThermalSettings.DEFAULTS.startTemperature(null));
        assertEquals(55.0, new ThermalSettings(55.0, 5, 1000, 2, 0.1).startTemperature(42.5), "the config's wins");
    }
}
