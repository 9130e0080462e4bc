package org.tunefarm.agent.sensors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.measure.SensorReading;

/** Against small sysfs trees built in a temporary folder, one case each. */
class LinuxSensorsTest {

    private static void write(Path root, String file, String content) throws IOException {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    private static SensorReading read(Path sys) {
        return Sensors.linux(sys).read();
    }

    @Test
    void readsTheCpuZoneTheFastestCoreAndTheLargestPowerRail(@TempDir Path sys) throws IOException {
        write(sys, "class/thermal/thermal_zone0/temp", "45000\n");
        write(sys, "class/thermal/thermal_zone1/temp", "51500\n");
        write(sys, "class/thermal/thermal_zone1/type", "cpu-thermal\n");
        write(sys, "class/hwmon/hwmon0/temp1_input", "58000\n");
        write(sys, "class/hwmon/hwmon0/power1_input", "2500000\n");
        write(sys, "class/hwmon/hwmon1/power1_input", "4000000\n");
        write(sys, "class/hwmon/hwmon1/power2_input", "1200000\n");
        write(sys, "devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "1800000\n");
        write(sys, "devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "2400000\n");
        write(sys, "devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "9999999\n");

        assertEquals(new SensorReading(51.5, 2400.0, 4.0, "thermal_zone1:cpu-thermal", "scaling_cur_freq", null, null, null), read(sys));
    }

    @Test
    void aPhonesCpuZoneWinsOverHotterSkinGpuAndBattery(@TempDir Path sys) throws IOException {
        String[][] zones = {{"cpu-0-0-usr", "40100"}, {"cpu-1-0-usr", "41200"}, {"gpuss-0-usr", "44000"}, {"battery", "35000"}, {"xo-therm", "46000"},
            {"tsens_tz_sensor3", "47000"}};
        for (int i = 0; i < zones.length; i++) {
            write(sys, "class/thermal/thermal_zone" + i + "/type", zones[i][0]);
            write(sys, "class/thermal/thermal_zone" + i + "/temp", zones[i][1]);
        }
        SensorReading r = read(sys);
        assertEquals(41.2, r.temperatureC());
        assertEquals("thermal_zone1:cpu-1-0-usr", r.temperatureSource());
    }

    @Test
    void withoutAnyKnownTypeTheHottestIsTakenAndTheSourceSaysSo(@TempDir Path sys) throws IOException {
        write(sys, "class/thermal/thermal_zone0/temp", "45000");
        write(sys, "class/hwmon/hwmon3/name", "nct6775");
        write(sys, "class/hwmon/hwmon3/temp2_input", "67250");
        SensorReading r = read(sys);
        assertEquals(67.25, r.temperatureC());
        assertEquals("max-of-all:hwmon3:nct6775/temp2", r.temperatureSource());
    }

    @Test
    void tenZonesSortAsNumbers(@TempDir Path sys) throws IOException {
        write(sys, "class/thermal/thermal_zone2/type", "cpu-thermal");
        write(sys, "class/thermal/thermal_zone2/temp", "50000");
        write(sys, "class/thermal/thermal_zone10/type", "cpu-thermal");
        write(sys, "class/thermal/thermal_zone10/temp", "50000");
        assertEquals("thermal_zone2:cpu-thermal", read(sys).temperatureSource(), "among equals the first in number order");
    }

    @Test
    void emptyTreeGivesNullsNotZeros(@TempDir Path sys) {
        assertEquals(SensorReading.NONE, read(sys));
        assertNull(Sensors.linux(sys).tripPointC());
    }

    @Test
    void emptyClassFoldersGiveNulls(@TempDir Path sys) throws IOException {
        Files.createDirectories(sys.resolve("class/thermal"));
        Files.createDirectories(sys.resolve("class/hwmon/hwmon0"));
        Files.createDirectories(sys.resolve("class/powercap/intel-rapl:0"));
        Files.createDirectories(sys.resolve("devices/system/cpu/cpu0"));
        Files.createDirectories(sys.resolve("bus/i2c/drivers/ina3221/1-0040/hwmon/hwmon1"));
        assertEquals(SensorReading.NONE, read(sys));
    }

    @Test
    void unreadableGarbageOrImplausibleFilesAreSkipped(@TempDir Path sys) throws IOException {
        write(sys, "class/thermal/thermal_zone0/temp", "garbage");
        write(sys, "class/thermal/thermal_zone1/temp", "39000");
        write(sys, "class/thermal/thermal_zone3/temp", "-273150"); // a disconnected sensor
        write(sys, "class/thermal/thermal_zone4/temp", "511000");
        Files.createDirectories(sys.resolve("class/thermal/thermal_zone2/temp")); // a folder where a file should be
        write(sys, "devices/system/cpu/cpu0/cpufreq/cpuinfo_cur_freq", "0\n");
        write(sys, "devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "\n");
        assertEquals(new SensorReading(39.0, null, null, "max-of-all:thermal_zone1", null, null, null, null), read(sys));
    }

    @Test
    void jetsonRailsWithoutATotalAreSummedAndUnconnectedOnesSkipped(@TempDir Path sys) throws IOException {
        // AGX Orin: two monitors, no VDD_IN rail.
        String a = "bus/i2c/drivers/ina3221/1-0040/hwmon/hwmon2/", b = "bus/i2c/drivers/ina3221/1-0041/hwmon/hwmon3/";
        write(sys, a + "in1_label", "VDD_GPU_SOC"); write(sys, a + "in1_input", "19944"); write(sys, a + "curr1_input", "200");
        write(sys, a + "in2_label", "VDD_CPU_CV"); write(sys, a + "in2_input", "19952"); write(sys, a + "curr2_input", "100");
        write(sys, a + "in3_label", "VIN_SYS_5V0"); write(sys, a + "in3_input", "4984"); write(sys, a + "curr3_input", "400");
        write(sys, b + "in1_label", "NC"); write(sys, b + "in1_input", "0"); write(sys, b + "curr1_input", "9999");
        write(sys, b + "in2_label", "VDDQ_VDD2_1V8AO"); write(sys, b + "in2_input", "4992"); write(sys, b + "curr2_input", "50");
        double w = (19944 * 200 + 19952 * 100 + 4984 * 400 + 4992 * 50) / 1e6;
        assertEquals(w, read(sys).powerW(), 1e-9);
    }

    @Test
    void hwmonEnergyCountsWhereThereIsNoRapl(@TempDir Path sys) throws IOException {
        write(sys, "class/hwmon/hwmon4/name", "amd_energy");
        write(sys, "class/hwmon/hwmon4/energy1_input", "1500000");   // a core
        write(sys, "class/hwmon/hwmon4/energy17_input", "90000000"); // the socket
        assertEquals(90.0, read(sys).energyJ());
    }
}
