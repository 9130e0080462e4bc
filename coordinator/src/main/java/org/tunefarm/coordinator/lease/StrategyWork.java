package org.tunefarm.coordinator.lease;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Where a leader's strategies do their heavy work (a cost model's refit, seconds on a long
 * history), so the event loop that lends leases and takes reports only asks for proposals. One
 * thread for every search of the process: a 2-core coordinator keeps the other core for its
 * event loop, and refits queue rather than compete. Daemon, and gone when idle.
 */
final class StrategyWork {
    private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "strategy-work");
        t.setDaemon(true);
        return t;
    });

    static {
        POOL.allowCoreThreadTimeOut(true);
    }

    private StrategyWork() {}

    static Executor shared() {
        return POOL;
    }
}
