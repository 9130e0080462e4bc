package org.tunefarm.agent.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.kernels.KernelFamilies;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;

/** The agent runs only its own families, on parameters it has checked itself; whatever else a lease says is data. */
class CandidateCheckTest {

    private static final MeasureSettings QUICK = new MeasureSettings(2, 0.5, 5, 0.5, 5_000, 1);
    private static final KernelKey SLEEP = new KernelKey("sleep", Map.of("unitUs", 5), "fp32");
    private static final CandidateCheck CHECK = CandidateCheck.against(op -> KernelFamilies.get(op).spec(), 2, 256);

    /** Counts the distinct candidates that reached a worker (a noisy one may be measured again). */
    private static final class CountingWorker implements Worker {
        final java.util.Set<Map<String, Object>> reached = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final Worker inner = Worker.inProcess(KernelFamilies::get);

        @Override public CandidateOutcome measure(KernelKey key, Map<String, Object> params, MeasureSettings settings) {
            reached.add(params);
            return inner.measure(key, params, settings);
        }

        @Override public List<CandidateOutcome> measureInterleaved(KernelKey key, List<Map<String, Object>> params, MeasureSettings settings) {
            reached.addAll(params);
            return inner.measureInterleaved(key, params, settings);
        }

        @Override public void close() {}
    }

    private static List<Measurement> run(KernelKey key, CandidateCheck check, CountingWorker worker, List<Map<String, Object>> params) {
        List<BatchCandidate> cs = new ArrayList<>();
        for (int i = 0; i < params.size(); i++) cs.add(new BatchCandidate(i, params.get(i)));
        List<Measurement> out = new ArrayList<>();
        new BatchRunner(() -> worker, Sensors.NONE, "a", "c", Clock.systemUTC(), check).run(new Batch("s", key, cs, QUICK), out::add);
        out.sort((x, y) -> Long.compare(x.index(), y.index()));
        return out;
    }

    private static Map<String, Object> sleep(Object a, Object b, Object mode) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", a);
        m.put("b", b);
        m.put("mode", mode);
        return m;
    }

    @Test void leaseNamingAnUnknownOperationIsAnInvalidMeasurementNotAnException() {
        CountingWorker w = new CountingWorker();
        KernelKey conv9d = new KernelKey("conv9d", Map.of("n", 1), "fp32");
        List<Measurement> ms = run(conv9d, CHECK, w, List.of(Map.of("cmd", "rm -rf /")));
        assertEquals(1, ms.size());
        assertEquals(Status.INVALID, ms.get(0).status());
        assertTrue(ms.get(0).detail().contains("conv9d"), ms.get(0).detail());
        assertEquals(0, w.reached.size(), "nothing ran");
    }

    @Test void withoutTheCheckTheWorkerStillAnswersCrashForAnUnknownOperation() {
        CountingWorker w = new CountingWorker();
        List<Measurement> ms = run(new KernelKey("conv9d", Map.of("n", 1), "fp32"), CandidateCheck.NONE, w, List.of(Map.of("x", 1)));
        assertEquals(Status.CRASH, ms.get(0).status());
        assertTrue(ms.get(0).detail().contains("conv9d"), ms.get(0).detail());
    }

    @Test void parametersOutsideTheSpaceAreInvalidAndNeverRun() {
        CountingWorker w = new CountingWorker();
        Map<String, Object> extra = sleep(5, 11, "fast");
        extra.put("cmd", "$(touch /tmp/pwned)");
        Map<String, Object> missing = sleep(5, 11, "fast");
        missing.remove("b");
        List<Measurement> ms = run(SLEEP, CHECK, w, List.of(
                sleep(99, 11, "fast"),                  // outside the domain
                sleep(15, 15, "fast"),                  // breaks a + b <= 28
                sleep(5, 11, "`reboot`"),               // not one of the enum's values
                sleep("5; rm -rf /", 11, "fast"),       // a string where an integer belongs
                sleep(5.5, 11, "fast"),                 // not an integer
                extra,                                  // a parameter the family does not have
                missing,                                // one it needs
                sleep(5, 11, "fast")));                 // the one honest candidate
        for (int i = 0; i < 7; i++) assertEquals(Status.INVALID, ms.get(i).status(), ms.get(i).toString());
        assertEquals(Status.OK, ms.get(7).status(), ms.get(7).toString());
        assertEquals(1, w.reached.size(), "only the valid candidate reached the worker");
    }

    @Test void aShapeTheFamilyRefusesIsInvalid() {
        CountingWorker w = new CountingWorker();
        List<Measurement> ms = run(new KernelKey("sleep", Map.of("unitUs", -1), "fp32"), CHECK, w, List.of(sleep(5, 11, "fast")));
        assertEquals(Status.INVALID, ms.get(0).status());
        assertEquals(0, w.reached.size());
    }

    @Test void onADeviceWithoutVectorsAVectorCandidateIsInvalidAndNeverRuns() {
        CountingWorker w = new CountingWorker();
        KernelKey gemm = new KernelKey("gemm", Map.of("M", 8, "N", 16, "K", 8), "fp32");
        CandidateCheck scalarDevice = CandidateCheck.against(op -> KernelFamilies.get(op).spec(), 2, 0);
        Map<String, Object> scalar = new LinkedHashMap<>(KernelFamilies.get("gemm").spec().defaultConfig(gemm, 2));
        Map<String, Object> vector = new LinkedHashMap<>(scalar);
        vector.put("kernel", "vector");
        vector.put("microRows", 2);
        List<Measurement> ms = run(gemm, scalarDevice, w, List.of(vector, scalar));
        assertEquals(Status.INVALID, ms.get(0).status(), ms.get(0).toString());
        assertTrue(ms.get(0).detail().contains("kernel"), ms.get(0).detail());
        assertEquals(Status.OK, ms.get(1).status(), ms.get(1).toString());
        assertEquals(java.util.Set.of(scalar), w.reached, "only the scalar candidate reached the worker");
        // The same vector candidate is a point of the space of a device that has vectors.
        assertEquals(null, CHECK.refusal(gemm, vector));
    }
}
