package org.tunefarm.agent.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Stats;

class RetakeTest {

    private static final KernelKey KEY = new KernelKey("gemm", Map.of("M", 8, "N", 8, "K", 8), "fp32");

    /** A worker whose successive measurements have these CVs. */
    private static Worker scripted(List<Double> cvs, List<Integer> calls) {
        Iterator<Double> it = cvs.iterator();
        return new Worker() {
            @Override public CandidateOutcome measure(KernelKey key, Map<String, Object> params, MeasureSettings settings) {
                calls.add(1);
                double cv = it.next();
                return CandidateOutcome.ok(new Stats(90, 100, 100, 100 * cv, cv, 10, 1), 0);
            }

            @Override public List<CandidateOutcome> measureInterleaved(KernelKey key, List<Map<String, Object>> params, MeasureSettings settings) {
                throw new UnsupportedOperationException();
            }

            @Override public void close() {}
        };
    }

    private static Measurement runOne(List<Double> cvs, List<Integer> calls, Fidelity fidelity) {
        Batch batch = new Batch("s", KEY, List.of(new BatchCandidate(3, Map.of("x", 1))), MeasureSettings.DEFAULTS, 0, fidelity);
        List<Measurement> out = new ArrayList<>();
        new BatchRunner(() -> scripted(cvs, calls), Sensors.NONE, "a", "c", Clock.systemUTC()).run(batch, out::add);
        assertEquals(1, out.size());
        return out.get(0);
    }

    @Test
    void aNoisyMeasurementIsRetakenAndOnlyTheFinalOneRecorded() {
        List<Integer> calls = new ArrayList<>();
        Measurement m = runOne(List.of(0.20, 0.09, 0.01), calls, new Fidelity(0.05, 3, 3));
        assertEquals(3, calls.size());
        assertEquals(0.01, m.stats().cv());
        assertTrue(m.detail().startsWith("retaken 2x: cv 0.200 over 0.050, final cv 0.010"), m.detail());
        assertEquals(0, m.round());
    }

    @Test
    void retakesStopAtTheLimitAndSaySoInTheDetail() {
        List<Integer> calls = new ArrayList<>();
        Measurement m = runOne(List.of(0.2, 0.2, 0.2, 0.2), calls, new Fidelity(0.05, 2, 3));
        assertEquals(3, calls.size(), "first measurement plus two retakes");
        assertTrue(m.detail().contains("still over"), m.detail());
    }

    @Test
    void aQuietMeasurementIsTakenOnce() {
        List<Integer> calls = new ArrayList<>();
        Measurement m = runOne(List.of(0.01), calls, Fidelity.DEFAULTS);
        assertEquals(1, calls.size());
        assertEquals("", m.detail());
    }
}
