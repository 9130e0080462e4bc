package org.tunefarm.coordinator.scale;

import com.hazelcast.config.Config;
import com.hazelcast.config.YamlConfigBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.tunefarm.coordinator.HazelcastCallbacks;
import org.tunefarm.coordinator.replica.ReplicaVerticle;
import org.tunefarm.coordinator.replica.Replication;
import org.tunefarm.coordinator.replica.VersionedRecords;
import org.tunefarm.coordinator.store.RecordLog;
import org.tunefarm.coordinator.store.SweepLog;

/**
 * The durable half of one coordinator, for {@code bench ingest}: a clustered Vert.x node on its
 * own embedded Hazelcast member (loopback), its record log wrapped as {@code Coordinator} wraps it,
 * the replica verticle that takes a leader's copies, and the {@link Replication} a leader's reports
 * go through. Two of these in one JVM still talk over the clustered event bus (TCP on loopback)
 * and fsync their own files, so an acknowledged append is on two logs as in a farm; what is left
 * out is the bridge, the dispatcher and the table.
 */
final class IngestNode implements AutoCloseable {
    final Vertx vertx;
    final String nodeId;
    final RecordLog log;
    final Replication replication;
    private final HazelcastClusterManager cluster;
    private final VersionedRecords records;

    private IngestNode(Vertx vertx, HazelcastClusterManager cluster, RecordLog log, VersionedRecords records, Replication replication) {
        this.vertx = vertx;
        this.nodeId = cluster.getNodeId();
        this.cluster = cluster;
        this.log = log;
        this.records = records;
        this.replication = replication;
    }

    /** Starts a member of cluster {@code clusterName} keeping its logs in {@code data}. */
    static IngestNode start(String clusterName, Path data) throws Exception {
        Config member;
        try (InputStream in = IngestNode.class.getResourceAsStream("/hazelcast-default.yaml")) {
            member = new YamlConfigBuilder(in).build();
        }
        member.setClusterName(clusterName);
        member.setProperty("hazelcast.shutdownhook.enabled", "false");
        HazelcastCallbacks.install();
        HazelcastClusterManager cluster = new HazelcastClusterManager(member);
        Vertx vertx = await(Vertx.builder()
                .with(new VertxOptions().setEventBusOptions(new EventBusOptions().setHost("127.0.0.1").setPort(0)))
                .withClusterManager(cluster).buildClustered());
        RecordLog log = new RecordLog(data.resolve("records.jsonl"));
        // As a coordinator wraps its log, less the metrics observer.
        VersionedRecords records = new VersionedRecords(log);
        SweepLog sweeps = new SweepLog(data.resolve("sweeps.jsonl"));
        String nodeId = cluster.getNodeId();
        await(vertx.deployVerticle(new ReplicaVerticle(nodeId, records, sweeps)));
        return new IngestNode(vertx, cluster, log, records, new Replication(vertx, nodeId, cluster::getNodes, records, sweeps));
    }

    /** The cluster's members as Vert.x node ids. */
    List<String> nodes() {
        return cluster.getNodes();
    }

    static <T> T await(io.vertx.core.Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    @Override public void close() throws Exception {
        try {
            await(vertx.close());
        } finally {
            records.close();
        }
    }
}
