package org.tunefarm.agent.sensors;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import org.tunefarm.measure.SensorReading;

/**
 * Linux sysfs sensors. The root is a constructor argument so tests can build a fake {@code /sys}.
 * Unreadable files are skipped (some thermal zones answer EIO), absent ones give null.
 */
final class LinuxSensors implements Sensors {

    private final Path thermal;
    private final Path hwmon;
    private final Path cpus;

    LinuxSensors(Path sysfsRoot) {
        this.thermal = sysfsRoot.resolve("class/thermal");
        this.hwmon = sysfsRoot.resolve("class/hwmon");
        this.cpus = sysfsRoot.resolve("devices/system/cpu");
    }

    @Override
    public SensorReading read() {
        // Millidegrees; the hottest zone is what throttles the clock.
        OptionalDouble milliC = max(max(thermal, "thermal_zone*", "temp"), max(hwmon, "hwmon*", "temp*_input"));
        OptionalDouble kHz = max(cpus, "cpu[0-9]*", "cpufreq/scaling_cur_freq");
        // Microwatts; INA3221-style rails nest (total input, then CPU, SoC), so the largest is the total.
        OptionalDouble microW = max(hwmon, "hwmon*", "power*_input");
        return new SensorReading(
                milliC.isPresent() ? milliC.getAsDouble() / 1000.0 : null,
                kHz.isPresent() ? kHz.getAsDouble() / 1000.0 : null,
                microW.isPresent() ? microW.getAsDouble() / 1_000_000.0 : null);
    }

    /** Largest number in files matching {@code dirGlob/fileGlob} under {@code root}; fileGlob may have one folder. */
    private static OptionalDouble max(Path root, String dirGlob, String fileGlob) {
        if (!Files.isDirectory(root)) return OptionalDouble.empty();
        double best = Double.NEGATIVE_INFINITY;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, dirGlob)) {
            for (Path dir : dirs) {
                int slash = fileGlob.lastIndexOf('/');
                Path folder = slash < 0 ? dir : dir.resolve(fileGlob.substring(0, slash));
                String glob = fileGlob.substring(slash + 1);
                if (!Files.isDirectory(folder)) continue;
                try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, glob)) {
                    for (Path f : files) {
                        OptionalDouble v = number(f);
                        if (v.isPresent()) best = Math.max(best, v.getAsDouble());
                    }
                }
            }
        } catch (IOException e) {
            return OptionalDouble.empty();
        }
        return best == Double.NEGATIVE_INFINITY ? OptionalDouble.empty() : OptionalDouble.of(best);
    }

    private static OptionalDouble number(Path file) {
        try {
            return OptionalDouble.of(Double.parseDouble(Files.readString(file).strip()));
        } catch (IOException | NumberFormatException | SecurityException e) {
            return OptionalDouble.empty();
        }
    }

    private static OptionalDouble max(OptionalDouble a, OptionalDouble b) {
        if (a.isEmpty()) return b;
        if (b.isEmpty()) return a;
        return OptionalDouble.of(Math.max(a.getAsDouble(), b.getAsDouble()));
    }
}
