package org.tunefarm.coordinator.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.tunefarm.coordinator.dashboard.FarmView;
import org.tunefarm.coordinator.door.Refusals;
import org.tunefarm.coordinator.lease.Dispatcher;
import org.tunefarm.coordinator.lease.FarmVerticle;
import org.tunefarm.coordinator.store.ObservedRecords;
import org.tunefarm.measure.Measurement;

/**
 * The farm's own meters, beside Vert.x's HTTP and event-bus ones. Farm-wide figures (agents
 * online, leases in flight, lease expiries) come from the cluster's maps and counters, so every
 * coordinator reports the same value: aggregate them with {@code max}, not {@code sum}. The
 * others (records made durable, refusals, log sync time, replication lag) are this coordinator's
 * own. Labels are bounded: device classes, doors and refusal kinds, statuses; never an agent or
 * a candidate.
 */
public final class FarmMetrics implements ObservedRecords.Observer {
    /** How often the cluster-wide figures are read. */
    static final long REFRESH_MS = 1_000;

    private final MeterRegistry registry;
    private final Refusals refusals;
    private final Timer sync;
    private final Map<String, Counter> records = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> expiries = new ConcurrentHashMap<>();
    private final Set<String> refusalKinds = ConcurrentHashMap.newKeySet();
    private final AtomicLong busRefusals = new AtomicLong();
    private final AtomicLong leasesInFlight = new AtomicLong();
    private final MultiGauge agentsOnline;

    public FarmMetrics(MeterRegistry registry, Refusals refusals) {
        this.registry = registry;
        this.refusals = refusals;
        sync = Timer.builder("tunefarm.record.log.sync").description("Time from an append to this coordinator's record log until it is fsynced, the wait for its group's fsync included")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(5))
                .register(registry);
        agentsOnline = MultiGauge.builder("tunefarm.agents.online").description("Agents alive (idle or measuring), by device class; farm-wide")
                .register(registry);
        Gauge.builder("tunefarm.leases.in.flight", leasesInFlight, AtomicLong::get).description("Leases held by agents now; farm-wide")
                .register(registry);
        FunctionCounter.builder("tunefarm.refusals", busRefusals, AtomicLong::get).tags("door", "bus", "kind", "protocol")
                .description("Requests refused, by door and kind").register(registry);
        for (String reason : List.of(Dispatcher.EXPIRED_DEADLINE, Dispatcher.EXPIRED_AGENT_LOST)) {
            AtomicLong n = expiries.computeIfAbsent(reason, r -> new AtomicLong());
            FunctionCounter.builder("tunefarm.lease.expiries", n, AtomicLong::get).tags("reason", reason)
                    .description("Leases taken back because their deadline passed or their agent went silent; farm-wide").register(registry);
        }
    }

    @Override public void appended(List<Measurement> fresh, long nanos) {
        sync.record(Duration.ofNanos(nanos));
        for (Measurement m : fresh) {
            records.computeIfAbsent(m.status().name(), s -> Counter.builder("tunefarm.records").tags("status", s)
                    .description("Records made durable in this coordinator's log, by status").register(registry)).increment();
        }
    }

    /**
     * Starts reading the cluster-wide figures once a second.
     *
     * @param agents the agents as the dashboard last read them from the cluster map
     * @return the timer's id, for the owner to cancel before the cluster member leaves
     */
    public long start(Vertx vertx, Supplier<List<FarmView.AgentState>> agents, ReplicationLag lag) {
        lag.register(registry);
        return vertx.setPeriodic(1, REFRESH_MS, t -> {
            refresh(agents.get());
            for (var e : expiries.entrySet()) {
                vertx.sharedData().getCounter(FarmVerticle.EXPIRIES_COUNTER_PREFIX + e.getKey()).compose(c -> c.get())
                        .onSuccess(n -> e.getValue().set(n));
            }
            vertx.sharedData().getLocalCounter(FarmVerticle.REFUSED_COUNTER).compose(c -> c.get()).onSuccess(busRefusals::set);
            lag.refresh();
        });
    }

    private void refresh(List<FarmView.AgentState> agents) {
        Map<String, Long> online = new TreeMap<>();
        for (FarmView.AgentState a : agents) online.merge(a.deviceClass(), "offline".equals(a.state()) ? 0L : 1L, Long::sum);
        agentsOnline.register(online.entrySet().stream().map(e -> MultiGauge.Row.of(Tags.of("device_class", e.getKey()), e.getValue()))
                .collect(Collectors.toList()), true);
        leasesInFlight.set(agents.stream().filter(a -> "measuring".equals(a.state())).count());
        for (String kind : refusals.snapshot().keySet()) {
            if (!refusalKinds.add(kind)) continue;
            String[] doorKind = kind.split("/", 2);
            FunctionCounter.builder("tunefarm.refusals", refusals, r -> r.snapshot().getOrDefault(kind, 0L))
                    .tags("door", doorKind[0], "kind", doorKind.length > 1 ? doorKind[1] : "").register(registry);
        }
    }
}
