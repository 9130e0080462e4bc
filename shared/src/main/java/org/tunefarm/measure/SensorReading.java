package org.tunefarm.measure;

/**
 * What the device's sensors said at one moment. A null field means the platform has no such
 * sensor (never a fake zero): on a VM without hwmon the temperature is null, not 0 °C.
 *
 * @param temperatureC hottest CPU/SoC thermal zone, degrees Celsius
 * @param clockMhz     current CPU clock, MHz (max over cores)
 * @param powerW       package or board power, watts
 */
public record SensorReading(Double temperatureC, Double clockMhz, Double powerW) {
    public static final SensorReading NONE = new SensorReading(null, null, null);
}
