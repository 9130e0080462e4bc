package org.tunefarm.measure;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MeasureSettingsTest {
    private static final MeasureSettings D = MeasureSettings.DEFAULT;

    @Test
    void defaultsAreValid() {
        assertDoesNotThrow(D::validate);
        assertDoesNotThrow(() -> new MeasureSettings(1, 0.01, 0, 1e-6, 100, -1).validate());
        assertDoesNotThrow(() -> new MeasureSettings(1000, 60_000, 600_000, 0.999, 3_600_000, 0).validate());
    }

    @Test
    void eachOutOfRangeValueNamesItsField() {
        Map<String, List<MeasureSettings>> bad = Map.of(
                "measure.minSamples", List.of(
                        new MeasureSettings(0, D.minSampleMs(), D.maxWarmupMs(), D.steadyTolerance(), D.timeoutMs(), D.seed()),
                        new MeasureSettings(1001, D.minSampleMs(), D.maxWarmupMs(), D.steadyTolerance(), D.timeoutMs(), D.seed())),
                "measure.minSampleMs", List.of(
                        new MeasureSettings(D.minSamples(), 0, D.maxWarmupMs(), D.steadyTolerance(), D.timeoutMs(), D.seed()),
                        new MeasureSettings(D.minSamples(), Double.NaN, D.maxWarmupMs(), D.steadyTolerance(), D.timeoutMs(), D.seed()),
                        new MeasureSettings(D.minSamples(), 60_001, D.maxWarmupMs(), D.steadyTolerance(), D.timeoutMs(), D.seed())),
                "measure.maxWarmupMs", List.of(
                        new MeasureSettings(D.minSamples(), D.minSampleMs(), -1, D.steadyTolerance(), D.timeoutMs(), D.seed()),
                        new MeasureSettings(D.minSamples(), D.minSampleMs(), 600_001, D.steadyTolerance(), D.timeoutMs(), D.seed())),
                "measure.steadyTolerance", List.of(
                        new MeasureSettings(D.minSamples(), D.minSampleMs(), D.maxWarmupMs(), 0, D.timeoutMs(), D.seed()),
                        new MeasureSettings(D.minSamples(), D.minSampleMs(), D.maxWarmupMs(), 1, D.timeoutMs(), D.seed()),
                        new MeasureSettings(D.minSamples(), D.minSampleMs(), D.maxWarmupMs(), Double.NaN, D.timeoutMs(), D.seed())),
                "measure.timeoutMs", List.of(
                        new MeasureSettings(D.minSamples(), D.minSampleMs(), D.maxWarmupMs(), D.steadyTolerance(), 99, D.seed()),
                        new MeasureSettings(D.minSamples(), D.minSampleMs(), D.maxWarmupMs(), D.steadyTolerance(), 3_600_001, D.seed())));
        bad.forEach((field, settings) -> {
            for (MeasureSettings s : settings) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, s::validate, s.toString());
                assertTrue(e.getMessage().startsWith(field + " "), "expected " + field + " in: " + e.getMessage());
            }
        });
    }
}
