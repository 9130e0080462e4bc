package org.tunefarm.agent.sensors;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.tunefarm.measure.SensorReading;

/**
 * The device's temperature, clock and power right now. Each field of the reading is in the unit
 * its name says: temperature in degrees Celsius (the hottest CPU/SoC zone), clock in MHz (the
 * fastest core), power in watts (the board or package). A null field means the platform has no
 * such sensor; implementations never report a made-up 0 for a missing one.
 */
public interface Sensors {

    /** A reading; never null, fields null where there is no sensor. May be a few hundred ms old. */
    SensorReading read();

    /**
     * The temperature, in degrees Celsius, at which the chosen zones start to hold the clock down
     * (their lowest passive or hot trip point), or null when the platform does not say.
     */
    default Double tripPointC() {
        return null;
    }

    /** No sensors at all. */
    Sensors NONE = () -> SensorReading.NONE;

    /** The best this machine offers: Linux sysfs where present, OSHI for what it lacks, memoised ~200 ms. */
    static Sensors forThisMachine() {
        Path sys = Path.of("/sys");
        Sensors base = Files.isDirectory(sys) ? linux(sys).or(oshi()) : oshi();
        return memoised(base, Duration.ofMillis(200));
    }

    /** Reads thermal zones, hwmon and cpufreq under a sysfs root (normally {@code /sys}). */
    static Sensors linux(Path sysfsRoot) {
        return new LinuxSensors(sysfsRoot);
    }

    /** Reads through OSHI; its 0.0 °C ("no sensor") becomes null. */
    static Sensors oshi() {
        return new OshiSensors();
    }

    /** Each reading is reused for {@code ttl}, so reading around every candidate stays cheap. */
    static Sensors memoised(Sensors sensors, Duration ttl) {
        return new MemoisedSensors(sensors, ttl, System::nanoTime);
    }

    /** This reading, with fields it lacks taken from {@code other}. */
    default Sensors or(Sensors other) {
        return () -> {
            SensorReading a = read();
            if (a.temperatureC() != null && a.clockMhz() != null && a.powerW() != null) return a;
            SensorReading b = other.read();
            return new SensorReading(
                    a.temperatureC() != null ? a.temperatureC() : b.temperatureC(),
                    a.clockMhz() != null ? a.clockMhz() : b.clockMhz(),
                    a.powerW() != null ? a.powerW() : b.powerW());
        };
    }
}
