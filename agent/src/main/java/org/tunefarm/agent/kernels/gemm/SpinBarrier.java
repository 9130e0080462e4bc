package org.tunefarm.agent.kernels.gemm;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reusable barrier for the threads of one {@link ThreadTeam} call, which spins as the team does
 * (a GEMM step between two barriers lasts tens to hundreds of microseconds, far less than a park
 * and an unpark). The last thread to arrive runs the barrier's action before it releases the
 * others. A thread that fails {@link #breakBarrier breaks} it, so the others throw rather than
 * wait for a thread that will never come.
 */
final class SpinBarrier {

    private final int parties;
    private final AtomicInteger arrived = new AtomicInteger();
    private volatile int phase;
    private volatile boolean broken;

    SpinBarrier(int parties) {
        if (parties < 1) throw new IllegalArgumentException("parties must be positive, got " + parties);
        this.parties = parties;
    }

    /** Waits for all parties; the last to arrive runs {@code lastArrival} first. */
    void await(Runnable lastArrival) {
        int p = phase;
        if (broken) throw new IllegalStateException("a team thread failed");
        if (arrived.incrementAndGet() == parties) {
            arrived.set(0);
            lastArrival.run();
            phase = p + 1; // the volatile write that releases the others and publishes the action's writes
            return;
        }
        for (int spins = 0; phase == p; spins++) {
            if (broken) throw new IllegalStateException("a team thread failed");
            if (spins < 20_000) Thread.onSpinWait();
            else Thread.yield(); // a party that lost its CPU: stop competing for one
        }
    }

    /** Marks the barrier broken, for a thread that will not arrive; it stays broken until {@link #reset}. */
    void breakBarrier() {
        broken = true;
    }

    /** Ready for a new call: no one has arrived and it is not broken. Only while no thread waits on it. */
    void reset() {
        arrived.set(0);
        broken = false;
    }
}
