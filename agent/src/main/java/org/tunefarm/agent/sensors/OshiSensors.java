package org.tunefarm.agent.sensors;

import org.tunefarm.measure.SensorReading;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.hardware.HardwareAbstractionLayer;

/**
 * Sensors through OSHI, for platforms without readable sysfs and to complement it. OSHI reports
 * 0.0 °C when it has no sensor, so 0.0 is recorded as absent; it has no power reading.
 */
final class OshiSensors implements Sensors {

    /** The {@code temperatureSource} and {@code clockSource} of what OSHI gave. */
    static final String SOURCE = "oshi";

    private HardwareAbstractionLayer hardware;

    @Override
    public SensorReading read() {
        try {
            if (hardware == null) hardware = new SystemInfo().getHardware();
            Double temperature = celsiusOrNull(hardware.getSensors().getCpuTemperature());
            CentralProcessor cpu = hardware.getProcessor();
            Double mhz = mhzOrNull(cpu.getCurrentFreq());
            return new SensorReading(temperature, mhz, null, temperature == null ? null : SOURCE, mhz == null ? null : SOURCE,
                    mhzOrNull(cpu.getMaxFreq()), null, null);
        } catch (RuntimeException | LinkageError e) {
            // OSHI does not support every platform (some Android builds); no reading then.
            return SensorReading.NONE;
        }
    }

    static Double celsiusOrNull(double celsius) {
        return Double.isNaN(celsius) || celsius <= 0.0 ? null : Plausible.within(celsius, Plausible.MIN_CELSIUS, Plausible.MAX_CELSIUS);
    }

    /** The fastest of the cores' clocks in Hz; OSHI's 0 or -1 ("unknown") is null. */
    static Double mhzOrNull(long... hz) {
        long max = 0;
        for (long h : hz) max = Math.max(max, h);
        return max > 0 ? Plausible.within(max / 1e6, 0, Plausible.MAX_MHZ) : null;
    }
}
