package org.tunefarm.coordinator;

import com.hazelcast.internal.util.ConcurrencyUtil;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * Where the member runs the callbacks of its futures (the cluster manager's map reads and writes
 * complete through them). Hazelcast hands them to {@link ForkJoinPool#commonPool()} when that pool
 * has more than one thread, and otherwise starts a new thread for every callback: on a 2-core
 * coordinator the common pool has one, and a leader serving 256 agents started some 400 threads a
 * second. A pool of its own, sized as the common pool would be on a larger machine, serves them.
 * The setting is process-wide and internal to Hazelcast (5.3); it is made before the first member starts.
 */
public final class HazelcastCallbacks {
    private HazelcastCallbacks() {}

    private static final ForkJoinPool POOL = new ForkJoinPool(Math.max(2, Runtime.getRuntime().availableProcessors() - 1), pool -> {
        ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
        t.setName("hz-callbacks-" + t.getPoolIndex());
        t.setDaemon(true);
        return t;
    }, null, true);

    /** Installs the pool; idempotent. */
    public static synchronized void install() {
        if (ConcurrencyUtil.getDefaultAsyncExecutor() != POOL) ConcurrencyUtil.setDefaultAsyncExecutor(POOL);
    }
}
