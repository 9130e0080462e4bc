package org.tunefarm.coordinator.strategy;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * Holds a strategy to its budget: at most {@code trials} proposals (a failed candidate is a trial
 * like any other) and no proposals after {@code wallMillis} from the first ask. Serialises calls,
 * so one instance can serve agents pulling from several threads.
 */
final class Budgeted implements Strategy {
    private final Strategy inner;
    private final History history;
    private final long trials;       // <= 0: unlimited
    private final long wallNanos;    // <= 0: unlimited
    private final LongSupplier clock;
    private long start = -1;
    private long proposed;
    private boolean exhausted;

    Budgeted(Strategy inner, History history, long trials, double wallSeconds, LongSupplier clock) {
        this.inner = inner;
        this.history = history;
        this.trials = trials;
        this.wallNanos = wallSeconds > 0 ? (long) (wallSeconds * 1e9) : 0;
        this.clock = clock;
    }

    @Override public synchronized List<Long> propose(int n) {
        if (start < 0) start = clock.getAsLong();
        if (finished() || n <= 0) return List.of();
        int ask = trials > 0 ? (int) Math.min(n, trials - proposed) : n;
        List<Long> out = inner.propose(ask);
        if (out.size() > ask) out = out.subList(0, ask);
        proposed += out.size();
        if (out.isEmpty() && history.exhausted()) exhausted = true;
        return List.copyOf(out);
    }

    @Override public synchronized void tell(long index, Result result) {
        if (history.result(index) != null) return;
        inner.tell(index, result);
        history.record(index, result);
    }

    @Override public synchronized boolean finished() {
        return exhausted || history.exhausted() || (trials > 0 && proposed >= trials)
                || (wallNanos > 0 && start >= 0 && clock.getAsLong() - start >= wallNanos) || inner.finished();
    }

    @Override public String toString() {
        return inner.toString();
    }
}
