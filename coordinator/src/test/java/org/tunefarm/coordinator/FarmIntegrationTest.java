package org.tunefarm.coordinator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.SleepSpec;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;

/**
 * The whole farm on loopback: a real coordinator and two real agent processes (each with its own
 * worker JVM) run a sleep sweep and a small GEMM sweep; the table is checked through REST and the
 * record log on disk.
 */
class FarmIntegrationTest {
    static final String TOKEN = "integration-token";
    @TempDir static Path data;
    static Coordinator coordinator;
    static AgentProcess a1;
    static AgentProcess a2;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll static void start() throws Exception {
        CoordinatorConfig config = CoordinatorConfig.defaults().withDataDir(data).withPorts(FreePort.pick(), FreePort.pick()).withTokens(TOKEN, "")
                .withClusterName("test-" + java.util.UUID.randomUUID());
        coordinator = new Coordinator(config).start();
        List<String> bridge = List.of("127.0.0.1:" + config.bridgePort());
        a1 = AgentProcess.start("agent-1", bridge, TOKEN, data.resolve("agent-1.log"), List.of());
        a2 = AgentProcess.start("agent-2", bridge, TOKEN, data.resolve("agent-2.log"), List.of());
    }

    @AfterAll static void stop() throws Exception {
        if (a1 != null) a1.close();
        if (a2 != null) a2.close();
        if (coordinator != null) coordinator.close();
    }

    static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    static String submit(String yaml) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }

    static void awaitDone(String id, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertTrue(a1.alive() && a2.alive(), "an agent process died; see " + data);
            return "done".equals(get("/api/sweeps/" + id).path("state").asText());
        });
    }

    @Test void sleepSweepFindsTheKnownOptimumAndRecordsEveryPointOnce() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> get("/api/agents").size() == 2);
        String id = submit("""
                name: sleep-it
                kernel: sleep
                shapes: [{unitUs: 1000}]
                space: {a: [3, 4, 5, 6], b: [10, 11, 12], mode: [slow, fast]}
                strategy: {name: exhaustive, budget: 0}
                measure: {minSamples: 3, minSampleMs: 2, maxWarmupMs: 20, timeoutMs: 10000, finalists: 0}
                batchSize: 5
                """);
        awaitDone(id, Duration.ofMinutes(3));

        Map<Long, Integer> seen = new HashMap<>();
        Set<String> agents = new HashSet<>();
        for (String line : Files.readAllLines(data.resolve("records.jsonl"))) {
            Measurement m = Protocol.JSON.readValue(line, Measurement.class);
            if (!m.sweepId().equals(id)) continue;
            seen.merge(m.index(), 1, Integer::sum);
            agents.add(m.agentId());
            assertEquals(Status.OK, m.status(), line);
            Double t = m.after().temperatureC();
            assertTrue(t == null || t != 0.0, "a missing sensor reads as absent, never a fake 0: " + line);
        }
        assertEquals(4 * 3 * 2 + 1, seen.size(), "every valid point and the baseline");
        assertTrue(seen.values().stream().allMatch(n -> n == 1), "no point recorded twice: " + seen);
        assertEquals(2, agents.size(), "both agents took leases");

        JsonNode entry = get("/api/table?op=sleep").path("entries").get(0);
        KernelKey key = new KernelKey("sleep", Map.of("unitUs", 1000), "fp32");
        assertEquals(SleepSpec.OPTIMUM, Protocol.JSON.convertValue(entry.path("params"), Map.class));
        double expectedNs = SleepSpec.sleepMicros(key, SleepSpec.OPTIMUM) * 1000.0;
        assertTrue(entry.path("stats").path("medianNs").asDouble() >= expectedNs, entry.toString());
        assertTrue(entry.path("speedupOverDefault").asDouble() > 1, entry.toString());
    }

    @Test void smallGemmSweepGivesAVerifiedFasterKernel() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> get("/api/agents").size() == 2);
        String id = submit("""
                name: gemm-it
                kernel: gemm
                shapes: [{M: 96, N: 96, K: 96}]
                space: {kernel: [vector], threads: [1]}
                strategy: {name: random, budget: 6, seed: 3}
                measure: {minSamples: 3, minSampleMs: 2, maxWarmupMs: 200, timeoutMs: 20000, finalists: 0}
                batchSize: 3
                """);
        awaitDone(id, Duration.ofMinutes(4));
        int measured = 0;
        for (String line : Files.readAllLines(data.resolve("records.jsonl"))) {
            Measurement m = Protocol.JSON.readValue(line, Measurement.class);
            if (!m.sweepId().equals(id)) continue;
            measured++;
            assertEquals(Status.OK, m.status(), line);
            assertTrue(m.maxError() != null && m.maxError() < 1e-3, "every answer was checked: " + line);
            assertEquals(GEMM_IMPLEMENTATION, m.implementation(), "the agent stamps the version of the code that ran it: " + line);
        }
        assertEquals(7, measured, "six candidates and the baseline");
        JsonNode entry = get("/api/table?op=gemm&shape=96x96x96").path("entries").get(0);
        assertEquals("vector", entry.path("params").path("kernel").asText(), "a vector kernel beats the scalar default");
        assertTrue(entry.path("gflops").asDouble() > 0);
        assertFalse(entry.path("speedupOverDefault").isNull(), entry.toString());
        assertEquals(GEMM_IMPLEMENTATION, entry.path("implementation").asInt(), entry.toString());
    }

    static final int GEMM_IMPLEMENTATION = new org.tunefarm.agent.kernels.gemm.GemmFamily().implementation();
}
