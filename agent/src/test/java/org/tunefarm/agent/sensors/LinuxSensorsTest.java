package org.tunefarm.agent.sensors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.measure.SensorReading;

/** Against fake sysfs trees built in a temporary folder. */
class LinuxSensorsTest {

    private static void write(Path root, String file, String content) throws IOException {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    @Test
    void readsHottestZoneFastestCoreAndLargestPowerRail(@TempDir Path sys) throws IOException {
        write(sys, "class/thermal/thermal_zone0/temp", "45000\n");
        write(sys, "class/thermal/thermal_zone1/temp", "51500\n");
        write(sys, "class/thermal/thermal_zone1/type", "cpu-thermal\n");
        write(sys, "class/hwmon/hwmon0/temp1_input", "48000\n");
        write(sys, "class/hwmon/hwmon0/power1_input", "2500000\n");
        write(sys, "class/hwmon/hwmon1/power1_input", "4000000\n");
        write(sys, "class/hwmon/hwmon1/power2_input", "1200000\n");
        write(sys, "devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "1800000\n");
        write(sys, "devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "2400000\n");
        write(sys, "devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "9999999\n");

        assertEquals(new SensorReading(51.5, 2400.0, 4.0), new LinuxSensors(sys).read());
    }

    @Test
    void hwmonTemperatureCountsWhenItIsTheHottest(@TempDir Path sys) throws IOException {
        write(sys, "class/thermal/thermal_zone0/temp", "45000");
        write(sys, "class/hwmon/hwmon3/temp2_input", "67250");
        assertEquals(67.25, new LinuxSensors(sys).read().temperatureC());
    }

    @Test
    void emptyTreeGivesNullsNotZeros(@TempDir Path sys) {
        assertEquals(SensorReading.NONE, new LinuxSensors(sys).read());
    }

    @Test
    void emptyClassFoldersGiveNulls(@TempDir Path sys) throws IOException {
        Files.createDirectories(sys.resolve("class/thermal"));
        Files.createDirectories(sys.resolve("class/hwmon/hwmon0"));
        Files.createDirectories(sys.resolve("devices/system/cpu/cpu0"));
        assertEquals(SensorReading.NONE, new LinuxSensors(sys).read());
    }

    @Test
    void unreadableOrGarbageFilesAreSkipped(@TempDir Path sys) throws IOException {
        write(sys, "class/thermal/thermal_zone0/temp", "garbage");
        write(sys, "class/thermal/thermal_zone1/temp", "39000");
        Files.createDirectories(sys.resolve("class/thermal/thermal_zone2/temp")); // a folder where a file should be
        assertEquals(new SensorReading(39.0, null, null), new LinuxSensors(sys).read());
    }
}
