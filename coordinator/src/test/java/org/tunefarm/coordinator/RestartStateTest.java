package org.tunefarm.coordinator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.protocol.Protocol;

/**
 * A coordinator restarted on its data folder shows every sweep as it was before any agent is back:
 * a finished sweep is {@code done} (its searches are rebuilt from the records at start, not when an
 * agent of the class pulls), and a sweep with a time budget keeps its original deadline.
 */
class RestartStateTest {
    static final String TOKEN = "restart-state-token";
    static final String FINISHES = """
            name: finishes
            kernel: sleep
            shapes: [{unitUs: 100}]
            space: {a: [4, 5, 6], b: [10, 11], mode: [fast]}
            strategy: {name: exhaustive, budget: 0}
            measure: {minSamples: 3, minSampleMs: 2, maxWarmupMs: 10, timeoutMs: 10000, finalists: 2}
            batchSize: 4
            """;
    /** Seconds per candidate, hundreds of candidates, an hour's window: still exploring when the farm stops. */
    static final String TIMED = """
            name: timed
            kernel: sleep
            shapes: [{unitUs: 50000}]
            strategy: {name: random, budget: 0, seconds: 3600, seed: 3}
            measure: {minSamples: 3, minSampleMs: 2, maxWarmupMs: 10, timeoutMs: 60000, finalists: 0}
            batchSize: 1
            """;

    @TempDir Path data;
    final HttpClient http = HttpClient.newHttpClient();

    JsonNode get(Coordinator c, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.httpPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    String submit(Coordinator c, String yaml) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }

    @Test void aRestartedCoordinatorShowsFinishedSweepsDoneAndKeepsDeadlines() throws Exception {
        CoordinatorConfig config = TestFarm.config(data).withTokens(TOKEN, "");
        String finished, timed;
        JsonNode finishedBefore, timedSearch;
        try (Coordinator c = new Coordinator(config).start()) {
            AgentProcess agent = AgentProcess.start("agent-1", List.of("127.0.0.1:" + config.bridgePort()), TOKEN, data.resolve("agent-1.log"), List.of());
            try {
                finished = submit(c, FINISHES);
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250))
                        .until(() -> "done".equals(get(c, "/api/sweeps/" + finished).path("state").asText()));
                finishedBefore = get(c, "/api/sweeps/" + finished).path("searches").get(0);
                timed = submit(c, TIMED);
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                        .until(() -> get(c, "/api/sweeps/" + timed).path("searches").size() == 1);
                timedSearch = get(c, "/api/sweeps/" + timed).path("searches").get(0);
            } finally {
                agent.close();
            }
        }
        long deadline = timedSearch.path("endsAt").asLong();
        assertTrue(deadline > System.currentTimeMillis() + 3_000_000, "an hour's window: " + timedSearch);

        try (Coordinator c = new Coordinator(config).start()) {
            // No agent is back, none will be: the state comes from the sweep log and the records alone.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                    .until(() -> get(c, "/api/sweeps/" + timed).path("searches").size() == 1);
            JsonNode f = get(c, "/api/sweeps/" + finished);
            assertEquals("done", f.path("state").asText(), f.toString());
            JsonNode search = f.path("searches").get(0);
            assertEquals(finishedBefore.path("measured").asInt(), search.path("measured").asInt(), "the records are folded in at restore");
            assertEquals(finishedBefore.path("deviceClass").asText(), search.path("deviceClass").asText());
            assertTrue(search.path("baselineMeasured").asBoolean());

            JsonNode t = get(c, "/api/sweeps/" + timed);
            assertEquals("running", t.path("state").asText(), t.toString());
            assertEquals(deadline, t.path("searches").get(0).path("endsAt").asLong(), "the original deadline, not a fresh window");
            assertEquals(0, get(c, "/api/health").path("quarantined").asInt());
        }
    }

    @Test void aNewLeaderShowsFinishedSweepsDone() throws Exception {
        String cluster = "restart-state-" + java.util.UUID.randomUUID();
        int[] members = {org.tunefarm.coordinator.local.FreePort.pick(), org.tunefarm.coordinator.local.FreePort.pick()};
        CoordinatorConfig first = member(data.resolve("first"), cluster, members, 0).withTokens(TOKEN, "");
        CoordinatorConfig second = member(data.resolve("second"), cluster, members, 1).withTokens(TOKEN, "");
        try (Coordinator follower = new Coordinator(second)) {
            String finished;
            JsonNode before;
            try (Coordinator leader = new Coordinator(first).start()) {
                follower.start();
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> leader.leading() && !follower.leading());
                AgentProcess agent = AgentProcess.start("agent-1", List.of("127.0.0.1:" + first.bridgePort()), TOKEN, data.resolve("agent-1.log"), List.of());
                try {
                    finished = submit(leader, FINISHES);
                    await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250))
                            .until(() -> "done".equals(get(leader, "/api/sweeps/" + finished).path("state").asText()));
                    before = get(leader, "/api/sweeps/" + finished).path("searches").get(0);
                } finally {
                    agent.close();
                }
            }
            // The follower takes over from its replica of the logs, with no agent of the class connected.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(follower::leading);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                    .until(() -> "done".equals(get(follower, "/api/sweeps/" + finished).path("state").asText()));
            JsonNode after = get(follower, "/api/sweeps/" + finished).path("searches").get(0);
            assertEquals(before.path("measured").asInt(), after.path("measured").asInt());
        }
    }

    /**
     * Member {@code i} of a two-member cluster of its own: fixed Hazelcast ports that list each
     * other, since the default port range may hold other clusters' members on a shared machine.
     */
    static CoordinatorConfig member(Path data, String cluster, int[] ports, int i) throws Exception {
        String yaml;
        try (java.io.InputStream in = RestartStateTest.class.getResourceAsStream("/hazelcast-default.yaml")) {
            yaml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        yaml = yaml.replace("cluster-name: tunefarm", "cluster-name: " + cluster)
                .replace("auto-increment: true", "auto-increment: false").replace("port: 5701", "port: " + ports[i])
                .replace("          - 127.0.0.1\n", "          - 127.0.0.1:" + ports[0] + "\n          - 127.0.0.1:" + ports[1] + "\n");
        java.nio.file.Files.createDirectories(data);
        Path file = data.resolve("hazelcast-pair.yaml");
        java.nio.file.Files.writeString(file, yaml);
        return CoordinatorConfig.defaults().withDataDir(data).withPorts(org.tunefarm.coordinator.local.FreePort.pick(),
                org.tunefarm.coordinator.local.FreePort.pick()).withHazelcast(file);
    }
}
