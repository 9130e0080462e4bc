package org.tunefarm.agent.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunefarm.measure.SensorReading;

class EnergyMeterTest {

    private static TimedReading at(double ms, Double watts, Double joules) {
        return new TimedReading(ms, new SensorReading(50.0, 1500.0, watts, null, null, null, joules, null));
    }

    @Test
    void theEnergyCounterGivesTheMeanPowerOverTheWindow() {
        // Idle at 1 W until 100 ms, then 10 W: the counter reads 0, 0.1, 1.1, 2.1, 3.1 J at 0..400 ms; power readings say 5 W (off).
        List<TimedReading> r = List.of(at(0, 1.0, 0.0), at(100, 5.0, 0.1), at(200, 5.0, 1.1), at(300, 5.0, 2.1), at(400, 5.0, 3.1), at(500, 1.0, 3.2));
        // 150..450 ms holds the readings at 200, 300, 400: 10 W for 0.3 s is 3 J, over 1000 calls.
        assertEquals(0.003, EnergyMeter.perCall(r, new SampleWindow(150, 450, 1000)), 1e-12);
        // A memoised sensor repeats a reading: it is dated when first seen, so the same rate comes out.
        List<TimedReading> memo = List.of(at(0, 1.0, 0.0), at(100, 5.0, 0.1), at(150, 5.0, 0.1), at(300, 5.0, 2.1), at(350, 5.0, 2.1), at(500, 1.0, 3.2));
        assertEquals(0.002, EnergyMeter.perCall(memo, new SampleWindow(50, 250, 1000)), 1e-12, "0.1 -> 2.1 J from 100 to 300 ms: 10 W");
    }

    @Test
    void aCounterOverTooShortASpanGivesWayToPower() {
        // Two counter values 30 ms apart, each dated only to within the polling period: power instead.
        List<TimedReading> r = List.of(at(0, 1.0, 0.0), at(100, 8.0, 0.5), at(130, 8.0, 1.0), at(200, 1.0, 1.1));
        assertEquals(8.0 * 0.02 / 10, EnergyMeter.perCall(r, new SampleWindow(100, 120, 10)), 1e-12);
    }

    @Test
    void withoutACounterMeanPowerTimesTime() {
        List<TimedReading> r = List.of(at(0, 4.0, null), at(100, 8.0, null), at(200, 12.0, null), at(300, 2.0, null));
        // Readings inside 50..250: 8 W and 12 W, mean 10 W, for 0.2 s: 2 J over 100 calls.
        assertEquals(0.02, EnergyMeter.perCall(r, new SampleWindow(50, 250, 100)), 1e-12);
        // A window between two polls: the readings under load (all but the first and the last) stand for it.
        assertEquals(10.0 * 0.02 / 10, EnergyMeter.perCall(r, new SampleWindow(101, 121, 10)), 1e-12);
    }

    @Test
    void nothingReadableIsNull() {
        assertNull(EnergyMeter.perCall(List.of(at(0, null, null), at(100, null, null)), new SampleWindow(10, 90, 5)));
        assertNull(EnergyMeter.perCall(List.of(), new SampleWindow(10, 90, 5)));
        assertNull(EnergyMeter.perCall(List.of(at(0, 5.0, 0.0)), null), "no timed samples");
    }
}
