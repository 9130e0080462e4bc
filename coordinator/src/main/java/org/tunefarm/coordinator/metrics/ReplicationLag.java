package org.tunefarm.coordinator.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * How many records this coordinator's replica lacks: each coordinator writes its record count to
 * a cluster map (with a time to live, so a dead one drops out), and the lag is the largest count
 * among live coordinators less its own. The leader's replica is the fullest, so its lag is 0; a
 * follower that cannot keep up, or is catching up after a restart, shows how far behind it is.
 */
public final class ReplicationLag {
    /** Cluster map: node id → that coordinator's record count. */
    static final String COUNTS_MAP = "tunefarm.replica.counts";
    static final long TTL_MS = 10_000;

    private final Vertx vertx;
    private final String self;
    private final Supplier<List<String>> nodes;
    private final IntSupplier localCount;
    private final AtomicLong lag = new AtomicLong();
    private boolean reading;

    /**
     * @param nodes      the cluster's live node ids
     * @param localCount records in this coordinator's log
     */
    public ReplicationLag(Vertx vertx, String self, Supplier<List<String>> nodes, IntSupplier localCount) {
        this.vertx = vertx;
        this.self = self;
        this.nodes = nodes;
        this.localCount = localCount;
    }

    void register(MeterRegistry registry) {
        Gauge.builder("tunefarm.replication.lag.records", lag, AtomicLong::get)
                .description("Records the fullest live coordinator holds that this one's replica lacks").register(registry);
    }

    /** Publishes this coordinator's count and recomputes the lag. */
    void refresh() {
        if (reading) return;
        reading = true;
        long own = localCount.getAsInt();
        List<String> live = nodes.get();
        vertx.sharedData().<String, Long>getAsyncMap(COUNTS_MAP)
                .compose(m -> m.put(self, own, TTL_MS).compose(v -> m.entries()))
                .onComplete(ar -> {
                    reading = false;
                    if (ar.failed()) return;
                    long max = own;
                    for (var e : ar.result().entrySet()) if (live.contains(e.getKey())) max = Math.max(max, e.getValue());
                    lag.set(max - own);
                });
    }
}
