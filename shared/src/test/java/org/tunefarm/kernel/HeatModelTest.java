package org.tunefarm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeatModelTest {

    private static final HeatModel M = HeatModel.BENCH;
    private static final KernelKey KEY = new KernelKey("heatsim", Map.of("unitUs", 8000), "fp32");

    @Test
    void newtonCoolingIsSolvedExactly() {
        // From 80 °C at rest (idle power settles at 37.5 °C): after one tau, 1/e of the gap is left.
        double settled = M.ambientC() + M.idleW() * M.resistance();
        assertEquals(settled + (80 - settled) / Math.E, M.advance(80, M.idleW(), M.tauS()), 1e-9);
        // Two steps are one step: the state can be advanced by whoever touches it, in any pieces.
        assertEquals(M.advance(40, 10, 1.0), M.advance(M.advance(40, 10, 0.3), 10, 0.7), 1e-9);
        assertEquals(M.maxMhz(), M.clockMhz(M.throttleC()));
        assertEquals((M.maxMhz() + M.minMhz()) / 2, M.clockMhz((M.throttleC() + M.floorC()) / 2), 1e-9);
        assertEquals(M.minMhz(), M.clockMhz(M.floorC() + 50));
    }

    @Test
    void theSteadyStateBalancesPowerAndCooling() {
        for (Map<String, Object> p : space()) {
            HeatModel.Steady s = HeatSimSpec.steadyState(M, KEY, p);
            double power = M.powerW(HeatSimSpec.dynamicW(p), s.temperatureC());
            assertEquals(s.temperatureC(), M.ambientC() + power * M.resistance(), 1e-6, "balance for " + p);
        }
    }

    @Test
    void theBurstWinnerIsNotTheSustainedWinner() {
        List<Map<String, Object>> space = space();
        Map<String, Object> burst = space.stream().min(Comparator.comparingDouble(p -> HeatSimSpec.callNsAtMax(KEY, p))).orElseThrow();
        Map<String, Object> sustained = space.stream().min(Comparator.comparingDouble(p -> HeatSimSpec.steadyState(M, KEY, p).callNs())).orElseThrow();
        assertEquals(Map.of("width", 8, "layout", "tiles"), burst);
        assertEquals(Map.of("width", 4, "layout", "tiles"), sustained);
        assertNotEquals(burst, sustained);
        // By a margin a measurement can see: more than 20% more calls per second once hot.
        double ratio = HeatSimSpec.steadyState(M, KEY, burst).callNs() / HeatSimSpec.steadyState(M, KEY, sustained).callNs();
        assertTrue(ratio > 1.2, "sustained winner's advantage: " + ratio);
        // The faster device has the same steady states, sooner.
        assertEquals(HeatSimSpec.steadyState(M, KEY, burst).callNs(), HeatSimSpec.steadyState(M.faster(4), KEY, burst).callNs(), 1e-6);
    }

    static List<Map<String, Object>> space() {
        var space = new HeatSimSpec().space(KEY, 1);
        return java.util.stream.LongStream.range(0, space.size()).mapToObj(space::config).toList();
    }
}
