package org.tunefarm.measure;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What the device's sensors said at one moment. A null field means the platform has no such
 * sensor or could not read it (never a fake zero): on a VM without hwmon the temperature is null,
 * not 0 °C. Fields added after the first three are left out of the JSON when null, so a record
 * from a board without them stays as small as before.
 *
 * @param temperatureC      the CPU/SoC temperature, degrees Celsius: the hottest of the zones chosen
 *                          for the board (by type, e.g. {@code cpu-thermal}), not of every sensor
 * @param clockMhz          current CPU clock, MHz (max over cores)
 * @param powerW            package or board power, watts
 * @param temperatureSource which sensor(s) gave {@code temperatureC}, e.g. {@code thermal_zone0:cpu-thermal}
 * @param clockSource       which file or API gave {@code clockMhz}: {@code cpuinfo_cur_freq} (the
 *                          hardware's clock), {@code scaling_cur_freq} (may be only the request), {@code oshi}
 * @param maxClockMhz       the highest clock the CPU runs at ({@code cpuinfo_max_freq}), MHz
 * @param energyJ           a cumulative energy counter in joules (RAPL {@code energy_uj}, hwmon
 *                          {@code energy*_input}); only differences between two readings mean anything
 * @param throttled         Raspberry Pi {@code vcgencmd get_throttled} bits as reported (bit 0 under-voltage,
 *                          1 frequency capped, 2 throttled, 3 soft temperature limit now; bits 16-19 the
 *                          same since boot)
 */
public record SensorReading(
        Double temperatureC,
        Double clockMhz,
        Double powerW,
        @JsonInclude(JsonInclude.Include.NON_NULL) String temperatureSource,
        @JsonInclude(JsonInclude.Include.NON_NULL) String clockSource,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double maxClockMhz,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double energyJ,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer throttled) {

    public static final SensorReading NONE = new SensorReading(null, null, null);

    /** Pi throttle bits that mean the clock is held down now: frequency capped, throttled, soft temperature limit. */
    public static final int THROTTLED_NOW = 0b1110;

    /** Temperature, clock and power only. */
    public SensorReading(Double temperatureC, Double clockMhz, Double powerW) {
        this(temperatureC, clockMhz, powerW, null, null, null, null, null);
    }

    /** Whether the board itself says its clock is held down now (Pi throttle bits); false when it cannot say. */
    public boolean throttledNow() {
        return throttled != null && (throttled & THROTTLED_NOW) != 0;
    }
}
