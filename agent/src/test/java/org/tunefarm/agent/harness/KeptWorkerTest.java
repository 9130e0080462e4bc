package org.tunefarm.agent.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;

class KeptWorkerTest {
    private static final KernelKey A = new KernelKey("sleep", Map.of("unitUs", 100), "fp32");
    private static final KernelKey B = new KernelKey("sleep", Map.of("unitUs", 200), "fp32");
    private static final MeasureSettings S = new MeasureSettings(1, 1.0, 0, 0.05, 1000, 1);

    /** Workers that say which one they are and whether they were closed. */
    private final List<Fake> made = new CopyOnWriteArrayList<>();

    private final class Fake implements Worker {
        final int id = made.size();
        final AtomicInteger closes = new AtomicInteger();

        @Override public CandidateOutcome measure(KernelKey key, Map<String, Object> params, MeasureSettings settings) {
            return CandidateOutcome.failed(Status.CRASH, "worker " + id);
        }

        @Override public List<CandidateOutcome> measureInterleaved(KernelKey key, List<Map<String, Object>> params, MeasureSettings settings) {
            return List.of(measure(key, null, settings));
        }

        @Override public void close() {
            closes.incrementAndGet();
        }
    }

    private Worker fresh() {
        Fake f = new Fake();
        made.add(f);
        return f;
    }

    @Test
    void batchesOfOneKeyShareAWorkerAndAnotherKeyGetsAFreshOne() {
        KeptWorker kept = new KeptWorker(this::fresh, 60_000);
        try (Worker w = kept.lend()) {
            assertEquals("worker 0", w.measure(A, Map.of(), S).detail());
        }
        assertEquals(0, made.get(0).closes.get(), "handed back, not closed");
        try (Worker w = kept.lend()) {
            assertEquals("worker 0", w.measure(A, Map.of(), S).detail(), "the next lease of the same key");
            assertEquals("worker 1", w.measure(B, Map.of(), S).detail(), "another shape");
            assertEquals(1, made.get(0).closes.get(), "the first worker is closed once replaced");
        }
        assertEquals(2, kept.started());
    }

    @Test
    void anIdleWorkerIsClosedAndTheNextBatchStartsAnother() {
        KeptWorker kept = new KeptWorker(this::fresh, 50);
        try (Worker w = kept.lend()) {
            w.measure(A, Map.of(), S);
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> made.get(0).closes.get() == 1);
        try (Worker w = kept.lend()) {
            assertEquals("worker 1", w.measure(A, Map.of(), S).detail());
        }
    }

    @Test
    void aLentWorkerIsNeverClosedForIdlenessAndIsLentToOneBatchAtATime() throws Exception {
        KeptWorker kept = new KeptWorker(this::fresh, 50);
        try (Worker w = kept.lend()) {
            w.measure(A, Map.of(), S);
            assertThrows(IllegalStateException.class, kept::lend);
            Thread.sleep(200); // longer than idleMs: a batch still measuring keeps its worker
            assertEquals(0, made.get(0).closes.get());
            assertEquals("worker 0", w.measure(A, Map.of(), S).detail());
        }
    }
}
