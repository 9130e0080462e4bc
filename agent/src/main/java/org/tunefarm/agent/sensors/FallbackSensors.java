package org.tunefarm.agent.sensors;

import org.tunefarm.measure.SensorReading;

/**
 * One source's reading, with what it lacks taken from another: sysfs first, OSHI for a clock from
 * {@code /proc/cpuinfo} on a VM without cpufreq. A value travels with its source's name.
 */
final class FallbackSensors implements Sensors {

    private final Sensors first;
    private final Sensors second;

    FallbackSensors(Sensors first, Sensors second) {
        this.first = first;
        this.second = second;
    }

    @Override
    public SensorReading read() {
        SensorReading a = first.read();
        if (a.temperatureC() != null && a.clockMhz() != null && a.powerW() != null && a.maxClockMhz() != null
                && a.energyJ() != null && a.throttled() != null) {
            return a;
        }
        SensorReading b = second.read();
        boolean temperature = a.temperatureC() != null;
        boolean clock = a.clockMhz() != null;
        return new SensorReading(
                temperature ? a.temperatureC() : b.temperatureC(),
                clock ? a.clockMhz() : b.clockMhz(),
                a.powerW() != null ? a.powerW() : b.powerW(),
                temperature ? a.temperatureSource() : b.temperatureSource(),
                clock ? a.clockSource() : b.clockSource(),
                a.maxClockMhz() != null ? a.maxClockMhz() : b.maxClockMhz(),
                a.energyJ() != null ? a.energyJ() : b.energyJ(),
                a.throttled() != null ? a.throttled() : b.throttled());
    }

    @Override
    public Double tripPointC() {
        Double t = first.tripPointC();
        return t != null ? t : second.tripPointC();
    }
}
