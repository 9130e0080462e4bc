package org.tunefarm.agent.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;

/** A sustained run in a real worker JVM: longer than the candidate's own timeout, and not killed for it. */
class SustainedWorkerTest {

    @Test
    void aSustainedRunOutlivesTheCandidatesTimeout() {
        // 2 ms per call (sleep, a=5 b=11 is 1 unit of 2000 us); the candidate's timeout is 1 s, the run 2 s.
        KernelKey key = new KernelKey("sleep", Map.of("unitUs", 2000), "fp32");
        MeasureSettings settings = new MeasureSettings(3, 10.0, 50, 0.1, 1_000, 3);
        try (Worker w = WorkerCommand.current().withJvmArgs("-Xmx128m", "-XX:TieredStopAtLevel=1").newWorker()) {
            long start = System.nanoTime();
            CandidateOutcome o = w.sustain(key, Map.of("a", 5, "b", 11, "mode", "fast"), settings, 2.0);
            double seconds = (System.nanoTime() - start) / 1e9;
            assertEquals(Status.OK, o.status(), o.detail());
            assertTrue(seconds >= 2.0, "ran the whole 2 s: " + seconds);
            assertNotNull(o.sustainedNs());
            // A 2 ms sleep never returns early and, on a busy machine, wakes late: bounded below, loosely above.
            assertTrue(o.sustainedNs() >= 1.99e6 && o.sustainedNs() < 3.0e6, "time per call over the last fifth: " + o.sustainedNs());
            assertNotNull(o.window());
            assertTrue(o.window().seconds() > 0.3 && o.window().seconds() < 0.5, "the last fifth of 2 s: " + o.window());
            assertEquals(3, o.stats().samples() + o.stats().outliers(), "the statistics are the burst: the first minSamples blocks");
            assertEquals(0, o.window().calls() % o.stats().callsPerSample(), "the window holds whole blocks");
        }
    }
}
