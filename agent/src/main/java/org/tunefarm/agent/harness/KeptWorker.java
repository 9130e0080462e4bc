package org.tunefarm.agent.harness;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;

/**
 * One worker kept from batch to batch while they measure the same kernel and shape, so that a
 * sweep's leases do not each pay for starting a JVM (a second or more on a board, far more than a
 * short candidate takes). A batch of another kernel or shape gets a fresh worker, so the JIT's
 * profiles of one kernel never slow another's, as when every batch had its own; two leases of one
 * key share a worker as the candidates of one lease always did. A worker left idle for
 * {@code idleMs} is closed, so a board between sweeps holds no JVM it does not use. A worker that
 * died (a crash, a timeout) restarts itself on its next candidate, as within a batch.
 */
public final class KeptWorker {
    /** How long an unused worker is kept by default: longer than a pull's retry, short enough to free a board soon after a sweep. */
    public static final long IDLE_MS = 30_000;

    private final Supplier<Worker> fresh;
    private final long idleMs;
    private final ScheduledExecutorService idleTimer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kept-worker-idle");
        t.setDaemon(true);
        return t;
    });
    private Worker worker;
    private KernelKey key;
    private boolean lent;
    private ScheduledFuture<?> idleClose;
    private long started;

    public KeptWorker(Supplier<Worker> fresh, long idleMs) {
        this.fresh = fresh;
        this.idleMs = idleMs;
    }

    /** The worker for one batch; closing it hands it back. One batch at a time. */
    public synchronized Worker lend() {
        if (lent) throw new IllegalStateException("the kept worker is already lent to a batch");
        lent = true;
        if (idleClose != null) idleClose.cancel(false);
        return new Lent();
    }

    /** How many workers were started so far: one per kernel and shape in a row, not one per batch. */
    public synchronized long started() {
        return started;
    }

    /** The worker for {@code key}: the kept one when it measured the same key last, else a fresh one. */
    private synchronized Worker forKey(KernelKey k) {
        if (worker == null || !k.equals(key)) {
            if (worker != null) worker.close();
            worker = fresh.get();
            started++;
            key = k;
        }
        return worker;
    }

    private synchronized void handBack() {
        lent = false;
        if (worker != null) idleClose = idleTimer.schedule(this::closeIfIdle, idleMs, TimeUnit.MILLISECONDS);
    }

    private synchronized void closeIfIdle() {
        if (lent || worker == null) return;
        worker.close();
        worker = null;
        key = null;
    }

    /** The kept worker as one batch sees it: its close hands it back. */
    private final class Lent implements Worker {
        private boolean closed;

        @Override public CandidateOutcome measure(KernelKey k, Map<String, Object> params, MeasureSettings settings) {
            return forKey(k).measure(k, params, settings);
        }

        @Override public List<CandidateOutcome> measureInterleaved(KernelKey k, List<Map<String, Object>> params, MeasureSettings settings) {
            return forKey(k).measureInterleaved(k, params, settings);
        }

        @Override public CandidateOutcome sustain(KernelKey k, Map<String, Object> params, MeasureSettings settings, double seconds) {
            return forKey(k).sustain(k, params, settings, seconds);
        }

        @Override public void close() {
            if (closed) return;
            closed = true;
            handBack();
        }
    }
}
