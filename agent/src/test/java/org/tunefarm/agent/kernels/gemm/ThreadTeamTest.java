package org.tunefarm.agent.kernels.gemm;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/** The spinning team runs every share exactly once per call, whether its helpers spun or parked. */
class ThreadTeamTest {

    @Test void everyShareRunsOncePerCallAndIsSeenByTheCaller() {
        try (ThreadTeam team = new ThreadTeam(3)) {
            int calls = 2_000;
            AtomicIntegerArray runs = new AtomicIntegerArray(4);
            long[] written = new long[4];
            for (int call = 1; call <= calls; call++) {
                long value = call;
                team.run(i -> {
                    runs.incrementAndGet(i);
                    written[i] = value; // a plain write: run's return must make it visible
                });
                for (int i = 0; i < 4; i++) assertEquals(value, written[i], "share " + i + " of call " + call);
            }
            for (int i = 0; i < 4; i++) assertEquals(calls, runs.get(i), "share " + i);
        }
    }

    @Test void helpersThatParkedWakeForTheNextCall() {
        try (ThreadTeam team = new ThreadTeam(1)) {
            Thread[] helper = new Thread[1];
            team.run(i -> {
                if (i == 1) helper[0] = Thread.currentThread();
            });
            // Parked past its spin: waiting on the team, not spinning.
            await().atMost(Duration.ofSeconds(10)).until(() -> helper[0].getState() == Thread.State.WAITING);
            int[] ran = new int[2];
            team.run(i -> ran[i]++);
            assertArrayEquals(new int[] {1, 1}, ran);
        }
    }

    @Test void aHelpersFailureReachesTheCallerAndTheTeamGoesOn() {
        try (ThreadTeam team = new ThreadTeam(1)) {
            IllegalArgumentException boom = new IllegalArgumentException("boom");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> team.run(i -> {
                if (i == 1) throw boom;
            }));
            assertSame(boom, e.getCause());
            int[] ran = new int[2];
            team.run(i -> ran[i]++);
            assertArrayEquals(new int[] {1, 1}, ran, "a failed call leaves the team usable");
        }
    }

    @Test void closeEndsTheHelpersAndRefusesWork() throws InterruptedException {
        ThreadTeam team = new ThreadTeam(2);
        Thread[] helpers = new Thread[3];
        team.run(i -> helpers[i] = Thread.currentThread());
        team.close();
        for (int i = 1; i < 3; i++) {
            helpers[i].join(5_000);
            assertEquals(Thread.State.TERMINATED, helpers[i].getState());
        }
        assertThrows(IllegalStateException.class, () -> team.run(i -> { }));
    }
}
