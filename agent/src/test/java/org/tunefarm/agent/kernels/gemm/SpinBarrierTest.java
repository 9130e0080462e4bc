package org.tunefarm.agent.kernels.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SpinBarrierTest {

    /** No party leaves a phase before all have arrived, and the action runs once per phase, before anyone leaves. */
    @Test void partiesLeaveTogetherAndTheActionRunsOncePerPhase() {
        int parties = 3, phases = 1_000;
        SpinBarrier barrier = new SpinBarrier(parties);
        AtomicInteger arrivedThisPhase = new AtomicInteger(), actions = new AtomicInteger();
        int[] seenByAction = new int[phases];
        try (ThreadTeam team = new ThreadTeam(parties - 1)) {
            team.run(t -> {
                for (int p = 0; p < phases; p++) {
                    arrivedThisPhase.incrementAndGet();
                    int phase = p;
                    barrier.await(() -> {
                        seenByAction[phase] = arrivedThisPhase.getAndSet(0);
                        actions.incrementAndGet();
                    });
                }
            });
        }
        assertEquals(phases, actions.get());
        for (int p = 0; p < phases; p++) assertEquals(parties, seenByAction[p], "phase " + p);
    }

    /** A party that fails breaks the barrier: the others throw instead of waiting for it; reset makes it whole. */
    @Test void aBrokenBarrierReleasesTheWaiters() {
        SpinBarrier barrier = new SpinBarrier(2);
        try (ThreadTeam team = new ThreadTeam(1)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> team.run(t -> {
                if (t == 1) barrier.breakBarrier();
                else barrier.await(() -> {});
            }));
            assertEquals("a team thread failed", e.getMessage());
            barrier.reset();
            AtomicInteger passed = new AtomicInteger();
            team.run(t -> {
                barrier.await(() -> {});
                passed.incrementAndGet();
            });
            assertEquals(2, passed.get());
        }
    }
}
