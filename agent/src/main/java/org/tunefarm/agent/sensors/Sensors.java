package org.tunefarm.agent.sensors;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.tunefarm.measure.SensorReading;

/**
 * The device's temperature, clock, power and energy right now. Each field of the reading is in the
 * unit its name says: temperature in degrees Celsius (the hottest of the CPU's zones, chosen by
 * type), clock in MHz (the fastest core), power in watts (the board or package), energy a counter
 * in joules. A null field means the platform has no such sensor or this process may not read it;
 * implementations never report a made-up 0 for a missing one.
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

    /** The best this machine offers with the default settings (see {@link #forConfig}). */
    static Sensors forThisMachine() {
        return forConfig(SensorsConfig.DEFAULT);
    }

    /**
     * The agent's sensors: sysfs under the configured root where it exists, with OSHI for what it
     * lacks when that root is this machine's own {@code /sys} (a copied tree is the whole truth:
     * OSHI would read the real hardware), memoised ~200 ms.
     */
    static Sensors forConfig(SensorsConfig config) {
        Sensors base;
        if (!Files.isDirectory(config.sysfsRoot())) base = oshi();
        else {
            Sensors linux = new LinuxSensors(new Sysfs(config.sysfsRoot(), SysfsReader.FILES), config.zoneTypes(),
                    new PiThrottle(config.vcgencmd(), CommandRunner.PROCESS));
            base = config.thisMachine() ? linux.or(oshi()) : linux;
        }
        return memoised(base, Duration.ofMillis(200));
    }

    /** Reads thermal zones (the default CPU types), hwmon, cpufreq, INA3221 and RAPL under a sysfs root (normally {@code /sys}); no vcgencmd. */
    static Sensors linux(Path sysfsRoot) {
        return new LinuxSensors(new Sysfs(sysfsRoot, SysfsReader.FILES), ZoneTypes.DEFAULT, new PiThrottle(null, CommandRunner.PROCESS));
    }

    /** Reads through OSHI; its 0.0 °C ("no sensor") becomes null. */
    static Sensors oshi() {
        return new OshiSensors();
    }

    /** Each reading is reused for {@code ttl}, so reading around every candidate stays cheap. */
    static Sensors memoised(Sensors sensors, Duration ttl) {
        return new MemoisedSensors(sensors, ttl, System::nanoTime);
    }

    /** This reading, with fields it lacks taken from {@code other}; likewise the trip point. */
    default Sensors or(Sensors other) {
        return new FallbackSensors(this, other);
    }
}
