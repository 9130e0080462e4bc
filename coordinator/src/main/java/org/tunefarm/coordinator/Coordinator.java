package org.tunefarm.coordinator;

import com.hazelcast.config.Config;
import com.hazelcast.config.YamlConfigBuilder;
import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.tunefarm.coordinator.api.ApiVerticle;
import org.tunefarm.coordinator.bridge.AgentBridge;
import org.tunefarm.coordinator.door.Refusals;
import org.tunefarm.coordinator.lease.FarmVerticle;
import org.tunefarm.coordinator.replica.ReplicaVerticle;
import org.tunefarm.coordinator.replica.Replication;
import org.tunefarm.coordinator.store.RecordLog;
import org.tunefarm.coordinator.store.SweepLog;

/**
 * One coordinator: an embedded Hazelcast member, clustered Vert.x on top of it, a full replica
 * of the records and sweeps, the agent bridge and the REST API; and, on the one coordinator that
 * leads, the farm verticle that dispatches.
 */
public final class Coordinator implements AutoCloseable {

    private final CoordinatorConfig config;
    private HazelcastInstance hazelcast;
    private Vertx vertx;
    private RecordLog records;
    private AgentBridge bridge;
    private ApiVerticle api;
    private Leadership leadership;
    private final Refusals refusals = new Refusals();

    public Coordinator(CoordinatorConfig config) {
        this.config = config;
    }

    /** Starts everything; blocks until the coordinator serves REST and the bridge. */
    public Coordinator start() throws Exception {
        // The cluster manager starts the member itself: it tags the member with the Vert.x node id.
        HazelcastClusterManager cluster = new HazelcastClusterManager(hazelcastConfig());
        Future<Vertx> clustered = Vertx.builder()
                .with(new VertxOptions().setEventBusOptions(new EventBusOptions().setHost("127.0.0.1").setPort(0)))
                .withClusterManager(cluster)
                .buildClustered();
        vertx = clustered.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        hazelcast = cluster.getHazelcastInstance();
        records = new RecordLog(config.dataDir().resolve("records.jsonl"));
        SweepLog sweeps = new SweepLog(config.dataDir().resolve("sweeps.jsonl"));
        String nodeId = cluster.getNodeId();
        await(vertx.deployVerticle(new ReplicaVerticle(nodeId, records, sweeps)));
        Replication replication = new Replication(vertx, nodeId, cluster::getNodes, records, sweeps);
        // A coordinator that was down, or lost its disk, first copies what the others kept meanwhile.
        await(replication.catchUp());
        leadership = new Leadership(vertx, hazelcast, nodeId, config.quorum(),
                () -> new FarmVerticle(records, sweeps, replication, config.heartbeatMs()));
        await(leadership.start());
        bridge = new AgentBridge(vertx, config.token(), config.door(), refusals);
        await(bridge.listen(config.bridgeHost(), config.bridgePort()));
        api = new ApiVerticle(config, refusals, this::leading);
        await(vertx.deployVerticle(api));
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

    /** Whether this coordinator dispatches (and has finished taking over). */
    public boolean leading() {
        return leadership != null && leadership.leading();
    }

    public int httpPort() {
        return api.actualPort();
    }

    public int bridgePort() {
        return bridge.actualPort();
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
