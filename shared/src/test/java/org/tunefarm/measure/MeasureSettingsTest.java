package org.tunefarm.measure;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class MeasureSettingsTest {

    @Test
    void defaultsAreValid() {
        MeasureSettings d = MeasureSettings.DEFAULTS;
        assertTrue(d.minSamples() >= 1 && d.minSampleMs() > 0 && d.timeoutMs() > d.minSampleMs());
    }

    @Test
    void invalidValuesAreRejectedNamingTheField() {
        MeasureSettings d = MeasureSettings.DEFAULTS;
        Map<String, Supplier<MeasureSettings>> bad = Map.of(
                "minSamples", () -> d.withMinSamples(0),
                "minSampleMs", () -> d.withMinSampleMs(Double.NaN),
                "maxWarmupMs", () -> d.withMaxWarmupMs(-1),
                "steadyTolerance", () -> d.withSteadyTolerance(-0.1),
                "timeoutMs", () -> d.withTimeoutMs(0));
        bad.forEach((field, make) -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, make::get, field);
            assertTrue(e.getMessage().startsWith(field + " "), e.getMessage());
        });
    }
}
