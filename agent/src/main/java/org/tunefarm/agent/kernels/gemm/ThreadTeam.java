package org.tunefarm.agent.kernels.gemm;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.tunefarm.agent.kernels.KernelThreads;

/**
 * A fixed team of threads owned by one candidate: the caller runs share 0 and {@code helpers}
 * pool threads run the rest, so one call costs a wake-up per helper and no thread creation.
 * Public because the convolution families split their work the same way.
 */
public final class ThreadTeam implements AutoCloseable {

    /** The name of the team's threads, for tests and thread dumps. */
    static final String WORKER_NAME = "gemm-worker";

    private final ExecutorService pool;
    private final int helpers;

    public ThreadTeam(int helpers) {
        this.helpers = helpers;
        this.pool = Executors.newFixedThreadPool(helpers, r -> {
            // Its waits for a CPU count against the samples it works on (KernelThreads).
            Thread t = new Thread(() -> {
                KernelThreads.register();
                r.run();
            }, WORKER_NAME);
            t.setDaemon(true); // a candidate that is never closed must not keep the worker alive
            return t;
        });
    }

    /** Runs {@code share.accept(i)} for i in [0, helpers], returning when all have finished. */
    public void run(IntConsumer share) {
        List<Future<?>> pending = new ArrayList<>(helpers);
        for (int i = 1; i <= helpers; i++) {
            int part = i;
            pending.add(pool.submit(() -> share.accept(part)));
        }
        share.accept(0);
        try {
            for (Future<?> f : pending) f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for gemm workers", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a gemm worker failed", e.getCause());
        }
    }

    /** Stops the threads and waits briefly for them, so a closed candidate leaves none behind. */
    @Override public void close() {
        pool.shutdownNow();
        try {
            pool.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
