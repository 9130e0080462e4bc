package org.tunefarm.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tunefarm.coordinator.door.DoorConfig;
import org.tunefarm.coordinator.door.RegistrationLimits;
import org.tunefarm.coordinator.door.TlsFiles;

/**
 * A coordinator's settings, loaded once (from {@code configs/coordinator.yaml} or defaults) and
 * passed through constructors.
 *
 * @param dataDir        where the record log and sweep log live
 * @param httpHost       REST and dashboard
 * @param bridgeHost     the agent bridge agents connect to
 * @param token          the farm token every agent frame must carry
 * @param adminToken     required for REST writes; empty disables the check, but only while REST
 *                       listens on loopback (elsewhere writes are refused until one is set)
 * @param hazelcastFile  Hazelcast member config (YAML); null uses the built-in loopback default
 * @param heartbeatMs    agents heartbeat this often; three missed mark them dead
 * @param quorum         members a coordinator must see to dispatch (the partition fence)
 * @param clusterName    Hazelcast cluster name: coordinators with the same name on reachable
 *                       addresses form one farm; null keeps the Hazelcast config's
 * @param door           read token, TLS and bridge frame limits
 */
public record CoordinatorConfig(Path dataDir, String httpHost, int httpPort, String bridgeHost, int bridgePort,
                                String token, String adminToken, Path hazelcastFile, long heartbeatMs, int quorum, String clusterName,
                                DoorConfig door) {

    public static final String DEFAULT_TOKEN = "tunefarm-dev-token";

    public CoordinatorConfig {
        adminToken = adminToken == null ? "" : adminToken;
        door = door == null ? DoorConfig.defaults() : door;
    }

    public static CoordinatorConfig defaults() {
        return new CoordinatorConfig(Path.of("tunefarm-data"), "127.0.0.1", 8080, "127.0.0.1", 7000, DEFAULT_TOKEN, "", null, 1000, 1, null, DoorConfig.defaults());
    }

    public static CoordinatorConfig load(Path yaml) throws IOException {
        CoordinatorConfig d = defaults();
        JsonNode n = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(yaml));
        if (n == null || !n.isObject()) throw new IllegalArgumentException(yaml + ": must be a YAML mapping");
        Path base = yaml.toAbsolutePath().getParent();
        JsonNode http = n.path("http");
        JsonNode bridge = n.path("bridge");
        JsonNode tls = n.path("tls");
        DoorConfig door = new DoorConfig(n.path("readToken").asText(""),
                tls.isObject() ? new TlsFiles(path(base, tls, "certFile"), path(base, tls, "keyFile")) : null,
                bridge.path("maxFrameBytes").asInt(DoorConfig.MAX_FRAME_BYTES), bridge.path("frameTimeoutMs").asLong(DoorConfig.FRAME_TIMEOUT_MS),
                registrationLimits(bridge));
        return new CoordinatorConfig(
                n.hasNonNull("dataDir") ? Path.of(n.get("dataDir").asText()) : d.dataDir(),
                http.path("host").asText(d.httpHost()), http.path("port").asInt(d.httpPort()),
                bridge.path("host").asText(d.bridgeHost()), bridge.path("port").asInt(d.bridgePort()),
                n.path("token").asText(d.token()), n.path("adminToken").asText(d.adminToken()),
                n.hasNonNull("hazelcast") ? base.resolve(n.get("hazelcast").asText()) : null,
                n.path("heartbeatMs").asLong(d.heartbeatMs()), n.path("quorum").asInt(d.quorum()),
                n.hasNonNull("clusterName") ? n.get("clusterName").asText() : null, door);
    }

    private static RegistrationLimits registrationLimits(JsonNode bridge) {
        RegistrationLimits d = RegistrationLimits.defaults();
        return new RegistrationLimits(bridge.path("maxUnregisteredPerAddress").asInt(d.maxUnregisteredPerAddress()),
                bridge.path("maxUnregistered").asInt(d.maxUnregistered()),
                bridge.path("maxFailedRegistrationsPerMinute").asInt(d.maxFailedRegistrationsPerMinute()),
                bridge.path("registerWithinMs").asLong(d.registerWithinMs()));
    }

    /** TLS files are relative to the config file, like the Hazelcast file. */
    private static Path path(Path base, JsonNode tls, String field) {
        if (!tls.hasNonNull(field) || tls.get(field).asText().isBlank()) throw new IllegalArgumentException("tls." + field + ": is required when tls is set");
        return base.resolve(tls.get(field).asText());
    }

    /** Whether REST is reachable only from this machine, where an empty admin token is tolerable. */
    public boolean httpOnLoopback() {
        try {
            return InetAddress.getByName(httpHost).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    public CoordinatorConfig withPorts(int http, int bridge) {
        return new CoordinatorConfig(dataDir, httpHost, http, bridgeHost, bridge, token, adminToken, hazelcastFile, heartbeatMs, quorum, clusterName, door);
    }

    public CoordinatorConfig withDataDir(Path dir) {
        return new CoordinatorConfig(dir, httpHost, httpPort, bridgeHost, bridgePort, token, adminToken, hazelcastFile, heartbeatMs, quorum, clusterName, door);
    }

    public CoordinatorConfig withTokens(String farmToken, String admin) {
        return new CoordinatorConfig(dataDir, httpHost, httpPort, bridgeHost, bridgePort, farmToken, admin, hazelcastFile, heartbeatMs, quorum, clusterName, door);
    }

    public CoordinatorConfig withHazelcast(Path file) {
        return new CoordinatorConfig(dataDir, httpHost, httpPort, bridgeHost, bridgePort, token, adminToken, file, heartbeatMs, quorum, clusterName, door);
    }

    public CoordinatorConfig withClusterName(String name) {
        return new CoordinatorConfig(dataDir, httpHost, httpPort, bridgeHost, bridgePort, token, adminToken, hazelcastFile, heartbeatMs, quorum, name, door);
    }

    public CoordinatorConfig withQuorum(int q) {
        return new CoordinatorConfig(dataDir, httpHost, httpPort, bridgeHost, bridgePort, token, adminToken, hazelcastFile, heartbeatMs, q, clusterName, door);
    }

    public CoordinatorConfig withHeartbeatMs(long ms) {
        return new CoordinatorConfig(dataDir, httpHost, httpPort, bridgeHost, bridgePort, token, adminToken, hazelcastFile, ms, quorum, clusterName, door);
    }

    public CoordinatorConfig withDoor(DoorConfig d) {
        return new CoordinatorConfig(dataDir, httpHost, httpPort, bridgeHost, bridgePort, token, adminToken, hazelcastFile, heartbeatMs, quorum, clusterName, d);
    }

    public CoordinatorConfig withHosts(String http, String bridge) {
        return new CoordinatorConfig(dataDir, http, httpPort, bridge, bridgePort, token, adminToken, hazelcastFile, heartbeatMs, quorum, clusterName, door);
    }
}
