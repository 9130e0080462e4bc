package org.tunefarm.agent.kernels.gemm;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
import org.tunefarm.agent.kernels.KernelThreads;

/**
 * A fixed team of threads owned by one candidate: the caller runs share 0 and {@code helpers}
 * threads run the rest. Public because the convolution families split their work the same way.
 *
 * <p>Hand-off is a generation counter the helpers spin on for a short while before they park, and
 * the caller spins on a count of shares left, as OpenBLAS's and OpenMP's teams do: a call made
 * soon after the last one (a benchmark's back-to-back calls, a network's next layer) costs no
 * wake-up. Through an executor (a queue, a park and an unpark each way) an empty call cost about
 * 65 us on a 2-vCPU Zen 3, as long as a 14 x 14 pointwise layer's whole share. A helper that saw
 * no work for {@link #SPIN_NANOS} parks, so an idle team costs no CPU.
 */
public final class ThreadTeam implements AutoCloseable {

    /** The name of the team's threads, for tests and thread dumps. */
    static final String WORKER_NAME = "gemm-worker";

    /** How long a helper spins for the next call before it parks: well above a kernel call's gap, well below a second. */
    static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final Thread[] helpers;
    private final boolean[] parked;
    private final AtomicInteger left = new AtomicInteger();
    private volatile long generation;
    private volatile IntConsumer share;
    private volatile Throwable failure;
    private volatile boolean closed;

    public ThreadTeam(int helpers) {
        this.helpers = new Thread[helpers];
        this.parked = new boolean[helpers];
        for (int i = 0; i < helpers; i++) {
            int part = i + 1;
            Thread t = new Thread(() -> help(part), WORKER_NAME);
            t.setDaemon(true); // a candidate that is never closed must not keep the JVM alive
            this.helpers[i] = t;
            t.start();
        }
    }

    /** Runs {@code share.accept(i)} for i in [0, helpers], returning when all have finished. */
    public void run(IntConsumer share) {
        if (closed) throw new IllegalStateException("the gemm team is closed");
        this.share = share;
        failure = null;
        left.set(helpers.length);
        generation++; // the volatile write that publishes share to the helpers
        for (int i = 0; i < helpers.length; i++) {
            synchronized (parked) {
                if (parked[i]) LockSupport.unpark(helpers[i]);
            }
        }
        Throwable own = null;
        try {
            share.accept(0);
        } catch (Throwable t) {
            own = t;
        }
        // Always waits for every helper, even when interrupted: a helper still on this call's share
        // would otherwise count down the next call's. Shares are finite, so the wait is too.
        for (int spins = 0; left.get() > 0; spins++) {
            if (spins < 20_000) Thread.onSpinWait();
            else Thread.yield(); // a helper that lost its CPU: stop competing for one
        }
        if (Thread.currentThread().isInterrupted()) throw new IllegalStateException("interrupted while running gemm shares");
        if (own instanceof RuntimeException e) throw e;
        if (own instanceof Error e) throw e;
        if (failure != null) throw new IllegalStateException("a gemm worker failed", failure);
    }

    private void help(int part) {
        KernelThreads.register(); // its waits for a CPU count against the samples it works on
        long seen = 0;
        while (true) {
            long g = awaitGeneration(part, seen);
            if (g < 0) return;
            seen = g;
            try {
                share.accept(part);
            } catch (Throwable t) {
                failure = t;
            } finally {
                left.decrementAndGet();
            }
        }
    }

    /** The next generation after {@code seen}, spinning then parking; -1 once the team is closed. */
    private long awaitGeneration(int part, long seen) {
        long spinUntil = System.nanoTime() + SPIN_NANOS;
        while (true) {
            if (closed) return -1;
            long g = generation;
            if (g != seen) return g;
            if (System.nanoTime() < spinUntil) {
                Thread.onSpinWait();
                continue;
            }
            synchronized (parked) {
                parked[part - 1] = true;
            }
            // Checked again after announcing the park: a call published in between finds the flag set and unparks.
            if (generation == seen && !closed) LockSupport.park(this);
            synchronized (parked) {
                parked[part - 1] = false;
            }
            spinUntil = System.nanoTime() + SPIN_NANOS;
        }
    }

    /** Stops the threads and waits briefly for them, so a closed candidate leaves none behind. */
    @Override public void close() {
        closed = true;
        for (Thread t : helpers) LockSupport.unpark(t);
        for (Thread t : helpers) {
            try {
                t.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
