package org.tunefarm.coordinator;

import com.hazelcast.cluster.MembershipAdapter;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.config.Config;
import com.hazelcast.config.YamlConfigBuilder;
import com.hazelcast.core.HazelcastInstance;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.tunefarm.coordinator.api.ApiVerticle;
import org.tunefarm.coordinator.audit.Audit;
import org.tunefarm.coordinator.audit.AuditLog;
import org.tunefarm.coordinator.bridge.AgentBridge;
import org.tunefarm.coordinator.credential.Credentials;
import org.tunefarm.coordinator.dashboard.Watch;
import org.tunefarm.coordinator.door.Refusals;
import org.tunefarm.coordinator.lease.FarmRestore;
import org.tunefarm.coordinator.lease.FarmVerticle;
import org.tunefarm.coordinator.metrics.FarmMetrics;
import org.tunefarm.coordinator.metrics.PrometheusMeters;
import org.tunefarm.coordinator.metrics.ReplicationLag;
import org.tunefarm.coordinator.replica.CatchUp;
import org.tunefarm.coordinator.replica.LogSeed;
import org.tunefarm.coordinator.replica.LogStreams;
import org.tunefarm.coordinator.replica.ReplicaVerticle;
import org.tunefarm.coordinator.replica.Replication;
import org.tunefarm.coordinator.replica.VersionedRecords;
import org.tunefarm.coordinator.store.ObservedRecords;
import org.tunefarm.coordinator.store.Quarantine;
import org.tunefarm.coordinator.store.RecordLog;
import org.tunefarm.coordinator.store.SweepLog;

/**
 * One coordinator: an embedded Hazelcast member, clustered Vert.x on top of it, a full replica
 * of the records and sweeps, the agent bridge and the REST API; and, on the one coordinator that
 * leads, the farm verticle that dispatches. The agents' credentials, the audit log and the farm's
 * id ({@link FarmId}) live in its data folder beside the records. Every coordinator also serves the dashboard and
 * {@code /metrics}, from the cluster maps and its own replica.
 */
public final class Coordinator implements AutoCloseable {

    /** The member attribute where Vert.x's cluster manager keeps its node id. */
    static final String NODE_ID = "__vertx.nodeId";

    private final CoordinatorConfig config;
    private HazelcastInstance hazelcast;
    private Vertx vertx;
    private VersionedRecords records;
    private AgentBridge bridge;
    private ApiVerticle api;
    private Leadership leadership;
    private Credentials credentials;
    private LogStreams streams;
    /** Periodic timers this coordinator set outside any verticle: cancelled first on close. */
    private final List<Long> timers = new ArrayList<>();
    private final Refusals refusals = new Refusals();

    public Coordinator(CoordinatorConfig config) {
        this.config = config;
    }

    /** Starts everything; blocks until the coordinator serves REST and the bridge. */
    public Coordinator start() throws Exception {
        // The cluster manager starts the member itself: it tags the member with the Vert.x node id.
        Config member = hazelcastConfig();
        HazelcastCallbacks.install();
        HazelcastClusterManager cluster = new HazelcastClusterManager(member);
        PrometheusMeterRegistry meters = PrometheusMeters.registry();
        // The event bus listens on, and advertises, the address the member is configured to use:
        // the other coordinators reach it where they reach the member.
        Future<Vertx> clustered = Vertx.builder()
                .with(new VertxOptions().setEventBusOptions(new EventBusOptions().setHost(EventBusHost.of(member)).setPort(0))
                        .setMetricsOptions(PrometheusMeters.options()))
                .withMetrics(PrometheusMeters.factory(meters))
                .withClusterManager(cluster)
                .buildClustered();
        vertx = clustered.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        hazelcast = cluster.getHazelcastInstance();
        SweepLog sweeps = new SweepLog(config.dataDir().resolve("sweeps.jsonl"));
        String nodeId = cluster.getNodeId();
        java.nio.file.Path recordsFile = config.dataDir().resolve("records.jsonl");
        // An empty disk takes a peer's log as it lies, then opens it like any start.
        LogSeed.Seeded seeded = LogSeed.copy(vertx, nodeId, cluster.getNodes(), recordsFile, sweeps);
        // The record log is read once, as it is opened: the dashboard's tally and a leader's
        // sweeps and table are built from that one pass, not from replays of their own.
        Watch watch = new Watch(meters);
        FarmRestore restored = new FarmRestore(sweeps, config.heartbeatMs());
        RecordLog log = new RecordLog(recordsFile, m -> {
            watch.opened(m);
            restored.accept(m);
        });
        restored.opened(log.openedAt());
        FarmMetrics metrics = new FarmMetrics(meters, refusals);
        // Every record this coordinator makes durable (its own, copied or caught up) is seen by both.
        records = new VersionedRecords(new ObservedRecords(log, (fresh, nanos) -> {
            metrics.appended(fresh, nanos);
            watch.appended(fresh, nanos);
        }));
        FarmId farmId = await(FarmId.agree(vertx, config.dataDir()));
        // Lines held in quarantine stay counted until an operator deals with them (and removes the file).
        vertx.sharedData().getLocalMap(Quarantine.COUNTS).put("lines", log.quarantine().count() + sweeps.quarantine().count());
        await(vertx.deployVerticle(new ReplicaVerticle(nodeId, records, sweeps)));
        streams = new LogStreams(vertx, nodeId, EventBusHost.of(member), records.bytes());
        Replication replication = new Replication(vertx, nodeId, cluster::getNodes, records, sweeps);
        CatchUp copies = replication.copies();
        if (seeded != null) copies.resumeAt(seeded.peer(), seeded.length());
        // A coordinator that was down, or lost its disk, first copies what the others kept meanwhile;
        // one that could not says so on /api/health and does not lead until it has.
        // Not bounded like the other steps: a long history takes minutes to copy, and every page is
        // bounded by its own timeout, so this ends.
        copies.fromAll().otherwiseEmpty().toCompletionStage().toCompletableFuture().get();
        // A member that joins or returns (a restart, a healed partition) may hold records this one
        // lacks, and lacks this one's: each side reads the other's. The timer catches what an event missed.
        hazelcast.getCluster().addMembershipListener(new MembershipAdapter() {
            @Override public void memberAdded(MembershipEvent e) {
                String joined = e.getMember().getAttribute(NODE_ID);
                copies.joined(joined);
                // A leader (if this coordinator is one) writes its view over whatever the member brought.
                vertx.eventBus().publish(FarmVerticle.MEMBER_JOINED, joined, new DeliveryOptions().setLocalOnly(true));
            }
        });
        timers.add(vertx.setPeriodic(CatchUp.EVERY_MS, t -> copies.fromAll()));
        leadership = new Leadership(vertx, hazelcast, nodeId, config.quorum(), copies::caughtUp,
                () -> new FarmVerticle(records, sweeps, replication, config.heartbeatMs(), restored, this::heads));
        await(leadership.start());
        Audit audit = new AuditLog(config.dataDir().resolve("audit.jsonl"));
        credentials = new Credentials(vertx, config.dataDir().resolve("credentials.jsonl"), audit);
        await(credentials.start());
        bridge = new AgentBridge(vertx, config.token(), config.door(), refusals, credentials);
        await(bridge.listen(config.bridgeHost(), config.bridgePort()));
        // With the bridge's real port, which the served installer writes into agents' configs.
        api = new ApiVerticle(config.withPorts(config.httpPort(), bridge.actualPort()), refusals, this::leading,
                () -> copies.health().put("measuredTwice", records.measuredTwice()), audit, credentials, bridge::stats, watch, farmId);
        await(vertx.deployVerticle(api));
        timers.add(metrics.start(vertx, watch::agents, new ReplicationLag(vertx, nodeId, cluster::getNodes, records::count)));
        return this;
    }

    private Config hazelcastConfig() throws IOException {
        Config c;
        if (config.hazelcastFile() != null) {
            try (InputStream in = Files.newInputStream(config.hazelcastFile())) {
                c = new YamlConfigBuilder(in).build();
            }
        } else {
            try (InputStream in = Coordinator.class.getResourceAsStream("/hazelcast-default.yaml")) {
                c = new YamlConfigBuilder(in).build();
            }
        }
        c.setProperty("hazelcast.shutdownhook.enabled", "false");
        c.setProperty("hazelcast.phone.home.enabled", "false"); // farms often have no way out, and it is not ours to report
        if (config.clusterName() != null) c.setClusterName(config.clusterName());
        return c;
    }

    /** Whether this coordinator heads its cluster at this moment ({@link Leadership#heads}). */
    private boolean heads() {
        return leadership != null && leadership.heads();
    }

    /** Whether this coordinator dispatches (and has finished taking over). */
    public boolean leading() {
        return leadership != null && leadership.leading();
    }

    /** The REST verticle, whose routes the API document is checked against. */
    public ApiVerticle api() {
        return api;
    }

    public int httpPort() {
        return api.actualPort();
    }

    public int bridgePort() {
        return bridge.actualPort();
    }

    /** Connections and registrations the agent bridge saw since start ({@link AgentBridge#stats}). */
    public java.util.Map<String, Long> bridgeStats() {
        return bridge.stats();
    }

    /** What the bridge and REST refused since start, by kind. */
    public Refusals refusals() {
        return refusals;
    }

    public CoordinatorConfig config() {
        return config;
    }

    public Vertx vertx() {
        return vertx;
    }

    private static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    @Override public void close() throws Exception {
        // Vert.x leaves the cluster before its event loops stop, and a timer firing in between asked a
        // Hazelcast member that was no longer running (HazelcastInstanceNotActiveException at the demo's end).
        if (vertx != null) timers.forEach(vertx::cancelTimer);
        if (credentials != null) credentials.stop();
        if (streams != null) streams.close();
        if (vertx != null) {
            try {
                await(vertx.close());
            } catch (Exception ignored) {
                // closing anyway
            }
        }
        if (hazelcast != null && hazelcast.getLifecycleService().isRunning()) hazelcast.shutdown();
        if (records != null) records.close();
    }
}
