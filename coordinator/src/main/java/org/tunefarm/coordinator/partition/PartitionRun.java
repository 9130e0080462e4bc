package org.tunefarm.coordinator.partition;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.chaos.ChaosAudit;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.CoordinatorProcess;
import org.tunefarm.protocol.Protocol;

/**
 * One partition scenario on a {@link NetworkStage}, run from the hub namespace: coordinators and
 * agents as real processes on two sides, a sleep sweep started on the leader, side 2 cut off the
 * data network for a while, then healed; afterwards the sweep must finish and every coordinator's
 * log must hold every candidate once ({@link PartitionAudit}).
 *
 * <p>Side 1 holds the oldest coordinator (the leader) and the majority; side 2 the rest. With
 * three coordinators and quorum 2, side 2's lone coordinator must not dispatch during the cut;
 * with two and quorum 1, both sides do, and the heal must reconcile them.
 */
public final class PartitionRun {
    static final int HTTP_PORT = 8080;
    static final int BRIDGE_PORT = 7000;

    /**
     * @param coordinators 3 (two on side 1, one on side 2) or 2 (one each)
     * @param agentsPerSide agent processes on each side
     * @param maxA         the sweep keeps the sleep kernel's {@code a} in [0, maxA] (15: the whole space, 507 candidates a shape)
     * @param cutSeconds   how long side 2 stays cut off
     */
    public record Settings(int coordinators, int quorum, int agentsPerSide, int shapes, int unitUs, int maxA, int batchSize, int cutSeconds,
                           Path dir) {}

    private final Settings s;
    private final NetworkStage stage;
    private final PrintStream log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String token = "partition-" + UUID.randomUUID();
    private final String admin = "partition-admin-" + UUID.randomUUID();
    private final String cluster = "partition-" + UUID.randomUUID();
    private final List<CoordinatorProcess> coordinators = new ArrayList<>();
    private final List<Integer> sideOf = new ArrayList<>();
    private final List<AgentProcess> agents = new ArrayList<>();

    public PartitionRun(Settings settings, NetworkStage stage, PrintStream log) {
        this.s = settings;
        this.stage = stage;
        this.log = log;
    }

    public PartitionAudit.Outcome run() throws Exception {
        long started = System.currentTimeMillis();
        try {
            for (int i = 0; i < s.coordinators(); i++) sideOf.add(i == s.coordinators() - 1 ? 2 : 1);
            // The first member is the oldest, so it leads once it sees a quorum.
            startCoordinator(0);
            await("coordinator 0 answers", Duration.ofSeconds(120), () -> health(0) != null);
            for (int i = 1; i < s.coordinators(); i++) startCoordinator(i);
            for (int i = 1; i < s.coordinators(); i++) {
                int k = i;
                await("coordinator " + k + " answers", Duration.ofSeconds(120), () -> health(k).path("caughtUp").asBoolean());
            }
            await("coordinator 0 leads", Duration.ofSeconds(120), () -> health(0).path("leader").asBoolean());
            for (int side = 1; side <= 2; side++) for (int a = 0; a < s.agentsPerSide(); a++) startAgent(side, a);
            int agentCount = 2 * s.agentsPerSide();
            await("agents register", Duration.ofSeconds(120), () -> get(0, "/api/agents").size() >= agentCount);
            String sweep = submit();
            int candidates = PartitionAudit.expected(s).size();
            log.printf("partition: quorum %d, %d coordinators, %d agents, sweep %s of %d candidates%n", s.quorum(), s.coordinators(), agentCount,
                    sweep, candidates);
            await("the sweep gets going", Duration.ofSeconds(120), () -> measured(0, sweep) >= candidates / 8);

            log.printf("partition: cutting side 2 off for %d s%n", s.cutSeconds());
            stage.cut(2);
            Set<Integer> dispatching = new HashSet<>();
            long healAt = System.currentTimeMillis() + s.cutSeconds() * 1000L;
            while (System.currentTimeMillis() < healAt) {
                for (int i = 0; i < coordinators.size(); i++) {
                    try {
                        if (health(i).path("leader").asBoolean()) dispatching.add(i);
                    } catch (IOException ignored) {
                        // busy; asked again in a moment
                    }
                }
                Thread.sleep(500);
            }
            stage.heal(2);
            log.printf("partition: healed; coordinators that dispatched during the cut: %s%n", dispatching);

            await("one leader again", Duration.ofSeconds(120), () -> leaders() == 1);
            await("the sweep finishes", Duration.ofMinutes(6), () -> "done".equals(sweepState(sweep)));
            await("every coordinator caught up", Duration.ofSeconds(90), () -> {
                for (int i = 0; i < coordinators.size(); i++) if (!health(i).path("caughtUp").asBoolean()) return false;
                return ChaosAudit.replicaGaps(sweep, dataDirs()) == 0;
            });
            int leaders = leaders();
            int reportedTwice = 0;
            for (int i = 0; i < coordinators.size(); i++) reportedTwice = Math.max(reportedTwice, health(i).path("measuredTwice").asInt());
            stopAll();
            // Each log keeps the first measurement it got of a candidate, so each side's logs still
            // hold what that side measured before the halves copied each other's.
            List<PartitionAudit.Side> sides = List.of(PartitionAudit.side(sweep, dataOf(1)), PartitionAudit.side(sweep, dataOf(2)));
            return PartitionAudit.audit(s, sweep, sides, dataDirs(), dispatching.size(), leaders, reportedTwice,
                    (System.currentTimeMillis() - started) / 1000);
        } catch (Exception e) {
            log.println("partition: failed: " + e.getMessage() + "; data and logs in " + s.dir());
            for (int i = 0; i < coordinators.size(); i++) {
                log.println("partition: coordinator " + i + (coordinators.get(i).alive() ? "" : " (exited)") + ", its last warnings:");
                for (String w : lastWarnings(s.dir().resolve("coordinator-" + i + ".log"), 6)) log.println("  " + w);
            }
            throw e;
        } finally {
            stopAll();
        }
    }

    private void startCoordinator(int i) throws IOException {
        int side = sideOf.get(i);
        Path home = s.dir().resolve("coordinator-" + i);
        Files.createDirectories(home);
        Path hazelcast = home.resolve("hazelcast.yaml");
        Files.writeString(hazelcast, hazelcastConfig(side));
        Path config = home.resolve("coordinator.yaml");
        Files.writeString(config, """
                http: {host: 0.0.0.0}
                bridge: {host: %s}
                adminToken: %s
                hazelcast: %s
                """.formatted(NetworkStage.dataAddress(side), admin, hazelcast.toAbsolutePath()));
        coordinators.add(CoordinatorProcess.start(stage.inside(stage.side(side)), home.resolve("data"), HTTP_PORT + i, BRIDGE_PORT + i, token, cluster,
                s.dir().resolve("coordinator-" + i + ".log"), List.of("--config", config.toString(), "--quorum", String.valueOf(s.quorum()))));
    }

    /**
     * The built-in member config, on the namespace addresses: the member binds and advertises its
     * side's address and looks for the others at both sides' addresses.
     */
    private String hazelcastConfig(int side) throws IOException {
        String yaml;
        try (InputStream in = Coordinator.class.getResourceAsStream("/hazelcast-default.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String members = "          - " + NetworkStage.dataAddress(1) + "\n          - " + NetworkStage.dataAddress(2) + "\n";
        return yaml.replace("cluster-name: tunefarm", "cluster-name: " + cluster)
                .replace("          - 127.0.0.1\n", members)
                .replace("  network:\n", "  network:\n    interfaces:\n      enabled: true\n      interfaces:\n        - " + NetworkStage.dataAddress(side) + "\n");
    }

    /** An agent lists every coordinator, its own side's first; during the cut it reaches only those. */
    private void startAgent(int side, int n) throws IOException {
        List<String> bridges = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < coordinators.size(); i++) {
                if ((sideOf.get(i) == side) == (pass == 0)) bridges.add(NetworkStage.dataAddress(sideOf.get(i)) + ":" + (BRIDGE_PORT + i));
            }
        }
        String id = "agent-" + side + "-" + n;
        agents.add(AgentProcess.start(stage.inside(stage.side(side)), id, bridges, token, s.dir().resolve(id + ".log"), List.of()));
    }

    private String submit() throws Exception {
        StringBuilder shapes = new StringBuilder();
        for (int i = 0; i < s.shapes(); i++) shapes.append(i == 0 ? "" : ", ").append("{unitUs: ").append(s.unitUs() + i).append('}');
        String spec = """
                name: partition
                kernel: sleep
                shapes: [%s]
                space: {a: %s}
                strategy: {name: exhaustive, budget: 0}
                measure: {minSamples: 3, minSampleMs: 1, maxWarmupMs: 5, timeoutMs: 10000}
                batchSize: %d
                """.formatted(shapes, java.util.stream.IntStream.rangeClosed(0, s.maxA()).boxed().toList(), s.batchSize());
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base(0) + "/api/sweeps")).header("Authorization", "Bearer " + admin)
                .POST(HttpRequest.BodyPublishers.ofString(spec)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) throw new IllegalStateException("sweep refused: " + r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }

    private int measured(int i, String sweep) throws IOException, InterruptedException {
        int n = 0;
        for (JsonNode p : get(i, "/api/sweeps/" + sweep).path("searches")) n += p.path("measured").asInt();
        return n;
    }

    /** The sweep's state as the leader sees it. */
    private String sweepState(String sweep) throws IOException, InterruptedException {
        for (int i = 0; i < coordinators.size(); i++) {
            if (health(i).path("leader").asBoolean()) return get(i, "/api/sweeps/" + sweep).path("state").asText();
        }
        return "no leader";
    }

    private int leaders() throws IOException, InterruptedException {
        int n = 0;
        for (int i = 0; i < coordinators.size(); i++) if (health(i).path("leader").asBoolean()) n++;
        return n;
    }

    private List<Path> dataOf(int side) {
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < coordinators.size(); i++) if (sideOf.get(i) == side) out.add(coordinators.get(i).data());
        return out;
    }

    private List<Path> dataDirs() {
        return coordinators.stream().map(CoordinatorProcess::data).toList();
    }

    private JsonNode health(int i) throws IOException, InterruptedException {
        return get(i, "/api/health");
    }

    private JsonNode get(int i, String path) throws IOException, InterruptedException {
        if (!coordinators.get(i).alive()) throw new IllegalStateException("coordinator " + i + " exited; see " + s.dir());
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base(i) + path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IOException(path + " answered " + r.statusCode() + ": " + r.body());
        return Protocol.JSON.readTree(r.body());
    }

    private String base(int i) {
        return "http://" + NetworkStage.controlAddress(sideOf.get(i)) + ":" + (HTTP_PORT + i);
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private void await(String what, Duration within, Condition c) throws Exception {
        long end = System.currentTimeMillis() + within.toMillis();
        Exception last = null;
        while (System.currentTimeMillis() < end) {
            try {
                if (c.holds()) return;
            } catch (IllegalStateException e) {
                throw e;
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(what + ": not within " + within + (last != null ? " (last: " + last.getMessage() + ")" : ""));
    }

    /** The last lines of a log that warn or fail: where a CI run's failure leaves its cause. */
    private static List<String> lastWarnings(Path file, int n) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .filter(l -> l.contains("WARN") || l.contains("SEVERE") || l.contains("ERROR") || l.contains("Exception")).toList();
            return all.subList(Math.max(0, all.size() - n), all.size());
        } catch (IOException e) {
            return List.of("(not read: " + e.getMessage() + ")");
        }
    }

    private void stopAll() {
        agents.forEach(AgentProcess::close);
        agents.clear();
        coordinators.forEach(CoordinatorProcess::close);
    }
}
