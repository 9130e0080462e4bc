package org.tunefarm.agent.sensors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.tunefarm.measure.SensorReading;

/**
 * Each board's fake sysfs tree (test resources {@code sysfs/<board>}), read as the agent reads
 * it: the CPU's zone while a hotter non-CPU sensor exists, the hardware clock or the request and
 * which, power, energy, throttle bits, the trip point, and null for every sensor the board lacks.
 */
class BoardTreesTest {

    @Test void raspberryPi4() {
        LinuxSensors pi = FakeSysfs.linux("pi4", FakeSysfs.firmware("throttled=0x50005"));
        SensorReading r = pi.read();
        // The USB SSD's drivetemp reads 74 °C; the CPU is at 71.568.
        assertEquals(new SensorReading(71.568, 1000.0, null, "thermal_zone0:cpu-thermal", "cpuinfo_cur_freq", 1800.0, null, 0x50005), r);
        assertTrue(r.throttledNow(), "bit 2: throttled now");
        assertNull(pi.tripPointC(), "a Pi's zone has only a critical trip; its firmware throttles on its own, and says so in the bits");
    }

    @Test void raspberryPi4WhoseHardwareClockIsRootOnly() {
        LinuxSensors pi = FakeSysfs.linux(FakeSysfs.tree("pi4"), FakeSysfs.denying(f -> f.endsWith("cpuinfo_cur_freq")), ZoneTypes.DEFAULT,
                FakeSysfs.firmware("throttled=0x50005"));
        SensorReading r = pi.read();
        assertEquals(1800.0, r.clockMhz(), "the governor's request, since the hardware's clock is unreadable");
        assertEquals("scaling_cur_freq", r.clockSource());
        assertEquals(1800.0, r.maxClockMhz());
    }

    @Test void raspberryPi5() {
        LinuxSensors pi = FakeSysfs.linux("pi5", FakeSysfs.firmware("throttled=0x0"));
        SensorReading r = pi.read();
        // RP1's ADC reads 64.613 °C, hotter than the CPU.
        assertEquals(new SensorReading(62.25, 2400.0, null, "thermal_zone0:cpu-thermal", "cpuinfo_cur_freq", 2400.0, null, 0), r);
        assertFalse(r.throttledNow());
        assertNull(pi.tripPointC(), "critical and active (fan) trips only");
    }

    @Test void jetsonOrinNano() {
        AtomicInteger asked = new AtomicInteger();
        LinuxSensors orin = FakeSysfs.linux("jetson-orin", (argv, timeout) -> {
            asked.incrementAndGet();
            return FakeSysfs.NOT_A_PI.run(argv, timeout);
        });
        SensorReading r = orin.read();
        // gpu-thermal and tj-thermal read 51.031 °C; the VDD_IN rail is 1224 mA at 5048 mV.
        assertEquals(new SensorReading(47.593, 1510.4, 1224 * 5048 / 1e6, "thermal_zone0:cpu-thermal", "cpuinfo_cur_freq", 1510.4, null, null), r);
        assertEquals(99.0, orin.tripPointC(), "cpu-thermal's passive trip, not gpu-thermal's 95.5");
        orin.read();
        assertEquals(1, asked.get(), "a board without vcgencmd is not a Pi, and is not asked again");
    }

    @Test void x86ServerWithRapl() {
        LinuxSensors x86 = FakeSysfs.linux("x86-rapl", FakeSysfs.NOT_A_PI);
        SensorReading r = x86.read();
        // The NVMe drive reads 54.85 °C; intel_pstate has no cpuinfo_cur_freq; two packages' counters, not their DRAM sub-zones.
        assertEquals(new SensorReading(46.0, 3400.012, null, "thermal_zone1:x86_pkg_temp", "scaling_cur_freq", 3900.0,
                (41_829_034_591L + 38_127_700_312L) / 1e6, null), r);
        assertNull(x86.tripPointC(), "x86_pkg_temp's trips are 0 (unset), and acpitz's 40 °C passive trip is not the CPU's");
    }

    @Test void raplReadableByRootOnlyIsSaidOnceAndTheRestIsRead() {
        List<String> said = new ArrayList<>();
        Handler h = new Handler() {
            @Override public void publish(LogRecord r) { said.add(r.getMessage()); }
            @Override public void flush() {}
            @Override public void close() {}
        };
        Logger log = Logger.getLogger(Rapl.class.getName());
        log.addHandler(h);
        try {
            LinuxSensors x86 = FakeSysfs.linux(FakeSysfs.tree("x86-rapl"), FakeSysfs.denying(f -> f.endsWith("energy_uj")), ZoneTypes.DEFAULT,
                    FakeSysfs.NOT_A_PI);
            for (int i = 0; i < 3; i++) {
                SensorReading r = x86.read();
                assertNull(r.energyJ(), "no energy rather than a wrong one");
                assertEquals(46.0, r.temperatureC());
                assertEquals(3400.012, r.clockMhz());
            }
        } finally {
            log.removeHandler(h);
        }
        assertEquals(1, said.size(), "one line, not one per reading: " + said);
        String line = said.get(0);
        assertTrue(line.contains("class/powercap/intel-rapl:0/energy_uj") && line.contains("readable by root only"), line);
        assertTrue(line.contains("as root") && line.contains(Rapl.UDEV_RULE), line);
    }

    @Test void phoneWhereNothingIsReadable() {
        LinuxSensors phone = FakeSysfs.linux("phone", FakeSysfs.NOT_A_PI);
        assertEquals(SensorReading.NONE, phone.read(), "empty, garbage and missing files are absent sensors, never 0");
        assertNull(phone.tripPointC());
    }

    @Test void aBoardsOwnZoneList() {
        Path orin = FakeSysfs.tree("jetson-orin");
        LinuxSensors gpu = FakeSysfs.linux(orin, SysfsReader.FILES, ZoneTypes.of(List.of("gpu-thermal")), FakeSysfs.NOT_A_PI);
        assertEquals(51.031, gpu.read().temperatureC());
        assertEquals("thermal_zone1:gpu-thermal", gpu.read().temperatureSource());
        assertEquals(95.5, gpu.tripPointC());
        // Globs, and hwmon names count as kinds: the Pi's CPU sensor through hwmon.
        LinuxSensors soc = FakeSysfs.linux(orin, SysfsReader.FILES, ZoneTypes.of(List.of("soc?-thermal")), FakeSysfs.NOT_A_PI);
        assertEquals("thermal_zone6:soc1-thermal", soc.read().temperatureSource(), "the hottest of soc0-2");
        LinuxSensors hwmon = FakeSysfs.linux(FakeSysfs.tree("pi5"), SysfsReader.FILES, ZoneTypes.of(List.of("cpu_thermal")), FakeSysfs.NOT_A_PI);
        assertEquals("hwmon0:cpu_thermal/temp1", hwmon.read().temperatureSource());
        assertEquals(62.25, hwmon.read().temperatureC());
    }

    @Test void noListedTypeFallsBackToTheHottestAndSaysSo() {
        LinuxSensors orin = FakeSysfs.linux(FakeSysfs.tree("jetson-orin"), SysfsReader.FILES, ZoneTypes.of(List.of("no-such-zone")), FakeSysfs.NOT_A_PI);
        SensorReading r = orin.read();
        assertEquals(51.031, r.temperatureC(), "the hottest plausible sensor (the cv zones' -256 °C is no reading)");
        assertEquals(ThermalZones.MAX_OF_ALL + ":thermal_zone1:gpu-thermal", r.temperatureSource());
        assertEquals(95.5, orin.tripPointC(), "the trip point of the sensor it read");
    }

    @Test void aPiWhoseAgentMayNotReachTheFirmwareHasNoBits() throws IOException {
        AtomicInteger asked = new AtomicInteger();
        LinuxSensors pi = FakeSysfs.linux("pi4", (argv, timeout) -> {
            asked.incrementAndGet();
            return new CommandRunner.Output(255, "VCHI initialization failed\n");
        });
        assertNull(pi.read().throttled());
        assertNull(pi.read().throttled());
        assertEquals(2, asked.get(), "a Pi that failed once may answer later (a group added): asked again");
        LinuxSensors slow = FakeSysfs.linux("pi4", (argv, timeout) -> null);
        assertNull(slow.read().throttled(), "no answer in time: no bits, the rest of the reading as usual");
        assertEquals(71.568, slow.read().temperatureC());
    }
}
