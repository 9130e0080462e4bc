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

    private HardwareAbstractionLayer hardware;

    @Override
    public SensorReading read() {
        try {
            if (hardware == null) hardware = new SystemInfo().getHardware();
            Double temperature = celsiusOrNull(hardware.getSensors().getCpuTemperature());
            return new SensorReading(temperature, mhzOrNull(hardware.getProcessor()), null);
        } catch (RuntimeException | LinkageError e) {
            // OSHI does not support every platform (some Android builds); no reading then.
            return SensorReading.NONE;
        }
    }

    static Double celsiusOrNull(double celsius) {
        return Double.isNaN(celsius) || celsius <= 0.0 ? null : celsius;
    }

    private static Double mhzOrNull(CentralProcessor cpu) {
        long max = 0;
        for (long hz : cpu.getCurrentFreq()) max = Math.max(max, hz);
        return max > 0 ? max / 1e6 : null;
    }
}
