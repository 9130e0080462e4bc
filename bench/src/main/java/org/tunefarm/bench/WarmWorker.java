package org.tunefarm.bench;

import java.util.Map;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.agent.worker.WorkerCommand;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;

/**
 * One Java point in a worker JVM that runs nothing else, as an application that loads a table's
 * kernel runs it and as the C sides run, in a process of their own: not in the bench's JVM, whose
 * JIT has compiled the searches' other points (shared loops recompiled for them, call sites grown
 * megamorphic). On the Zen 5, the GEMM point 6x2 128/512/512 at 1024^3 on one thread read 113
 * GFLOP/s measured in the bench's JVM after the searches, and 130-200 in a JVM that had run
 * nothing else.
 *
 * <p>Started, the point runs unrecorded for at least {@link #JIT_WARM_MS} and until a
 * measurement is no more than 5% faster than the one before it (at most {@link #JIT_WARM_MAX_MS}):
 * the recorded samples follow the JIT's compilation, as OpenBLAS's follow its library's loading;
 * neither is inside the timed region. Without the minimum, {@code --quick}'s 100 ms warm-ups
 * recorded a 64^3 GEMM point at 0.25 GFLOP/s, its Vector API code still interpreted, and two
 * interpreted measurements agree with each other.
 */
final class WarmWorker implements AutoCloseable {

    /** How long a point runs unrecorded at least, and at most. */
    static final long JIT_WARM_MS = 2_000, JIT_WARM_MAX_MS = 10_000;

    private final Worker worker;
    private final KernelKey key;
    private final Map<String, Object> point;
    private final MeasureSettings full;

    private WarmWorker(Worker worker, KernelKey key, Map<String, Object> point, MeasureSettings full) {
        this.worker = worker;
        this.key = key;
        this.point = point;
        this.full = full;
    }

    /** A new worker JVM with {@code point} warmed up in it. */
    static WarmWorker start(KernelKey key, Map<String, Object> point, MeasureSettings full) {
        WarmWorker w = new WarmWorker(WorkerCommand.current().newWorker(), key, point, full);
        try {
            long start = System.nanoTime();
            CandidateOutcome last = w.measure();
            while (last.status() == Status.OK) {
                long ms = (System.nanoTime() - start) / 1_000_000;
                if (ms > JIT_WARM_MAX_MS) break;
                CandidateOutcome next = w.measure();
                boolean settled = next.status() != Status.OK || next.stats().medianNs() >= 0.95 * last.stats().medianNs();
                last = next;
                if (settled && ms >= JIT_WARM_MS) break;
            }
            return w;
        } catch (RuntimeException | Error e) {
            w.close();
            throw e;
        }
    }

    /** One measurement of the point with the full settings. */
    CandidateOutcome measure() {
        return worker.measure(key, point, full);
    }

    /** One measurement in a worker JVM of its own, started and closed for it. */
    static CandidateOutcome once(KernelKey key, Map<String, Object> point, MeasureSettings full) {
        try (WarmWorker w = start(key, point, full)) {
            return w.measure();
        }
    }

    @Override public void close() {
        worker.close();
    }
}
