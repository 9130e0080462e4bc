package org.tunefarm.agent.sensors;

import org.tunefarm.measure.SensorReading;

/**
 * Linux's sensors under one sysfs root (a constructor argument, so tests read a fake {@code /sys}):
 * the CPU's temperature from the zones chosen by type, the clock from cpufreq, power from a
 * Jetson's INA3221 rails or hwmon, energy from RAPL or hwmon, and a Pi's throttle bits from its
 * firmware. Each source answers null for what it cannot read.
 */
final class LinuxSensors implements Sensors {

    private final ThermalZones zones;
    private final CpuClock clock;
    private final Hwmon hwmon;
    private final Ina3221 ina3221;
    private final Rapl rapl;
    private final PiThrottle pi;

    LinuxSensors(Sysfs sysfs, ZoneTypes types, PiThrottle pi) {
        this.zones = new ThermalZones(sysfs, types);
        this.clock = new CpuClock(sysfs);
        this.hwmon = new Hwmon(sysfs);
        this.ina3221 = new Ina3221(sysfs);
        this.rapl = new Rapl(sysfs);
        this.pi = pi;
    }

    @Override
    public SensorReading read() {
        ThermalZones.Choice t = zones.choose();
        CpuClock.Reading c = clock.read();
        Double power = ina3221.powerW();
        if (power == null) power = hwmon.powerW();
        Double energy = rapl.energyJ();
        if (energy == null) energy = hwmon.energyJ();
        return new SensorReading(t.celsius(), c.mhz(), power, t.source(), c.source(), c.maxMhz(), energy, pi.bits());
    }

    @Override
    public Double tripPointC() {
        return zones.tripPointC();
    }
}
