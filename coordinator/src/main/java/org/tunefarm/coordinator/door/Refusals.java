package org.tunefarm.coordinator.door;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Counts and logs what the doors turned away, by door and kind ({@code bridge/bad-length},
 * {@code rest/400}). Every refusal is counted; logging is limited to {@value #LOG_PER_WINDOW}
 * lines per {@value #WINDOW_MS} ms, so a flood of garbage cannot flood the log or slow the event loop.
 */
public final class Refusals {
    private static final Logger LOG = Logger.getLogger(Refusals.class.getName());
    static final int LOG_PER_WINDOW = 20;
    static final long WINDOW_MS = 10_000;

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final AtomicLong windowStart = new AtomicLong();
    private final AtomicLong loggedInWindow = new AtomicLong();
    private final AtomicLong suppressed = new AtomicLong();

    /**
     * Records one refusal.
     *
     * @param door   {@code bridge} or {@code rest}
     * @param kind   a short stable name for what was wrong
     * @param from   the peer's address
     * @param detail what the peer was told
     */
    public void refused(String door, String kind, Object from, String detail) {
        counts.computeIfAbsent(door + "/" + kind, k -> new LongAdder()).increment();
        long now = System.currentTimeMillis();
        long start = windowStart.get();
        if (now - start > WINDOW_MS && windowStart.compareAndSet(start, now)) {
            loggedInWindow.set(0);
            long s = suppressed.getAndSet(0);
            if (s > 0) LOG.warning(s + " more refusals were counted but not logged in the last " + WINDOW_MS / 1000 + " s");
        }
        if (loggedInWindow.incrementAndGet() <= LOG_PER_WINDOW) {
            LOG.log(Level.WARNING, "{0}: refused {1} from {2}: {3}", new Object[] {door, kind, from, detail});
        } else {
            suppressed.incrementAndGet();
        }
    }

    /** A snapshot, sorted by name, e.g. {@code {bridge/bad-token=3, rest/400=12}}. */
    public Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** Total refusals at one door. */
    public long total(String door) {
        return snapshot().entrySet().stream().filter(e -> e.getKey().startsWith(door + "/")).mapToLong(Map.Entry::getValue).sum();
    }
}
