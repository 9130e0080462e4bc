package org.tunefarm.coordinator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;

/**
 * A sweep's life on a real farm: a coordinator and a real agent process (with its worker JVMs)
 * run a sleep sweep that is paused, resumed, cancelled, and outlives a coordinator restart.
 */
class SweepLifecycleFarmTest {
    static final String TOKEN = "lifecycle-token";
    /** 24 points and the baseline; two per lease, each candidate some tens of ms. */
    static final String SWEEP = """
            name: life
            kernel: sleep
            shapes: [{unitUs: 20000}]
            space: {a: [3, 4, 5, 6], b: [10, 11, 12], mode: [slow, fast]}
            strategy: {name: exhaustive, budget: 0}
            measure: {minSamples: 3, minSampleMs: 2, maxWarmupMs: 20, timeoutMs: 10000, finalists: 0}
            batchSize: 2
            """;

    @TempDir Path data;
    CoordinatorConfig config;
    Coordinator coordinator;
    AgentProcess agent;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach void start() throws Exception {
        config = TestFarm.config(data).withTokens(TOKEN, "");
        coordinator = new Coordinator(config).start();
        agent = AgentProcess.start("life-1", List.of("127.0.0.1:" + config.bridgePort()), TOKEN, data.resolve("agent.log"), List.of());
        await().atMost(Duration.ofSeconds(90)).until(() -> get("/api/agents").size() == 1);
    }

    @AfterEach void stop() throws Exception {
        if (agent != null) agent.close();
        if (coordinator != null) coordinator.close();
    }

    HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    JsonNode get(String path) throws Exception {
        HttpResponse<String> r = send("GET", path, null);
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    JsonNode post(String path, int status) throws Exception {
        HttpResponse<String> r = send("POST", path, path.endsWith("/priority") ? "{\"priority\": 7}" : null);
        assertEquals(status, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    String submit() throws Exception {
        HttpResponse<String> r = send("POST", "/api/sweeps", SWEEP);
        assertEquals(201, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }

    /** This sweep's records on disk: candidate index → how many times recorded. */
    Map<Long, Integer> records(String id) throws Exception {
        Map<Long, Integer> seen = new HashMap<>();
        Path f = data.resolve("records.jsonl");
        if (!Files.exists(f)) return seen;
        for (String line : Files.readAllLines(f)) {
            Measurement m = Protocol.JSON.readValue(line, Measurement.class);
            if (!m.sweepId().equals(id)) continue;
            assertEquals(Status.OK, m.status(), line);
            seen.merge(m.index(), 1, Integer::sum);
        }
        return seen;
    }

    int measured(String id) throws Exception {
        int n = 0;
        for (JsonNode p : get("/api/sweeps/" + id).path("searches")) n += p.path("measured").asInt();
        return n;
    }

    /** The agent holds no lease: it finished or gave up the one it had. */
    boolean agentIdle() throws Exception {
        JsonNode a = get("/api/agents").get(0);
        return a.path("leaseId").isNull() || a.path("leaseId").isMissingNode();
    }

    @Test void pausedSweepLendsNothingUntilResumedThenFinishesWithEveryPointOnce() throws Exception {
        String id = submit();
        await().atMost(Duration.ofMinutes(2)).until(() -> measured(id) >= 2);
        JsonNode paused = post("/api/sweeps/" + id + "/pause", 200);
        assertEquals("paused", paused.path("state").asText());
        // The lease out is stopped at its next report; then nothing more is lent.
        await().atMost(Duration.ofSeconds(60)).until(this::agentIdle);
        int atPause = records(id).size();
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(10)).until(() -> records(id).size() == atPause && agentIdle());
        assertTrue(atPause < 25, "paused before the end: " + atPause);
        assertTrue(agent.alive());

        assertEquals("running", post("/api/sweeps/" + id + "/resume", 200).path("state").asText());
        await().atMost(Duration.ofMinutes(3)).until(() -> "done".equals(get("/api/sweeps/" + id).path("state").asText()));
        Map<Long, Integer> seen = records(id);
        assertEquals(25, seen.size(), "every point and the baseline: " + seen);
        assertTrue(seen.values().stream().allMatch(n -> n == 1), "none recorded twice: " + seen);
        // A done sweep cannot be paused; the refusal names the field.
        JsonNode refused = post("/api/sweeps/" + id + "/pause", 409);
        assertEquals("state", refused.path("field").asText());
    }

    @Test void cancelledSweepKeepsItsRecordsLendsNothingAndStaysCancelledAfterARestart() throws Exception {
        String id = submit();
        assertEquals(7, post("/api/sweeps/" + id + "/priority", 200).path("priority").asInt());
        await().atMost(Duration.ofMinutes(2)).until(() -> measured(id) >= 2);
        assertEquals("cancelled", post("/api/sweeps/" + id + "/cancel", 200).path("state").asText());
        await().atMost(Duration.ofSeconds(60)).until(this::agentIdle);
        int atCancel = records(id).size();
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(10)).until(() -> records(id).size() == atCancel);
        assertTrue(atCancel >= 2 && atCancel < 25, "what was measured is kept: " + atCancel);
        assertEquals("state", post("/api/sweeps/" + id + "/resume", 409).path("field").asText());
        assertEquals("id", post("/api/sweeps/nosuch/cancel", 404).path("field").asText());

        coordinator.close();
        coordinator = new Coordinator(config).start();
        await().atMost(Duration.ofSeconds(60)).until(() -> get("/api/sweeps/" + id).path("state").asText().equals("cancelled"));
        JsonNode s = get("/api/sweeps/" + id);
        assertEquals(7, s.path("priority").asInt(), "the priority is kept too");
        await().atMost(Duration.ofSeconds(90)).until(() -> get("/api/agents").path(0).path("alive").asBoolean());
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(10)).until(() -> records(id).size() == atCancel);
    }
}
