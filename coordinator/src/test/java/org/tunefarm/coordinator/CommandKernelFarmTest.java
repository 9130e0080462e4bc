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
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;

/**
 * A command kernel through the real farm: a coordinator and one agent process whose config file
 * declares a tiled C sgemm; gcc compiles each candidate with -D parameters, the program checks its
 * answer and prints its times, and the table gets a GFLOP/s entry for it.
 */
class CommandKernelFarmTest {
    static final String TOKEN = "command-token";
    @TempDir static Path data;
    static Coordinator coordinator;
    static AgentProcess agent;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll static void start() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/gcc")) || Files.isExecutable(Path.of("/bin/gcc")), "gcc is absent");
        Path kernelDir = Files.createDirectories(data.resolve("kernels/c_sgemm/build"));
        Files.copy(Path.of("../configs/kernels/c_sgemm/sgemm.c"), kernelDir.resolve("../sgemm.c"));
        Path config = data.resolve("agent.yaml");
        Files.writeString(config, """
                labels: {site: it}
                commandKernels:
                  - name: c_sgemm
                    dimensions: [M, N, K]
                    flops: "2*M*N*K"
                    parameters: {TM: [16, 32, 64], TN: [16, 32, 64], TK: [16, 32, 64], UNROLL: [1, 2, 4]}
                    constraints: ["TM * TK <= 4096"]
                    default: {TM: 16, TN: 16, TK: 16, UNROLL: 1}
                    workdir: kernels/c_sgemm
                    build: [gcc, -O3, -march=native, "-DTM={TM}", "-DTN={TN}", "-DTK={TK}", "-DUNROLL={UNROLL}", -o, "build/sgemm_{TM}_{TN}_{TK}_{UNROLL}", sgemm.c]
                    run: ["build/sgemm_{TM}_{TN}_{TK}_{UNROLL}", "{M}", "{N}", "{K}", "{seed}", "{samples}"]
                    output: json
                    buildTimeoutMs: 60000
                    runTimeoutMs: 30000
                """);
        // A cluster of its own: other coordinators on this machine (other test runs) must not share its maps.
        Path hazelcast = data.resolve("hazelcast.yaml");
        try (var in = Coordinator.class.getResourceAsStream("/hazelcast-default.yaml")) {
            Files.writeString(hazelcast, new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .replace("cluster-name: tunefarm", "cluster-name: tunefarm-command-it-" + java.util.UUID.randomUUID()));
        }
        CoordinatorConfig cc = CoordinatorConfig.defaults().withDataDir(data).withPorts(FreePort.pick(), FreePort.pick()).withTokens(TOKEN, "")
                .withHazelcast(hazelcast);
        coordinator = new Coordinator(cc).start();
        agent = AgentProcess.start("c-board", List.of("127.0.0.1:" + cc.bridgePort()), TOKEN, data.resolve("agent.log"),
                List.of("--config", config.toString()));
    }

    @AfterAll static void stop() throws Exception {
        if (agent != null) agent.close();
        if (coordinator != null) coordinator.close();
    }

    static HttpResponse<String> post(String yaml) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    @Test void aCSgemmSweepRunsThroughTheFarmAndTablesGflops() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> get("/api/agents").size() == 1);
        assertEquals("c_sgemm", get("/api/agents").get(0).path("commandKernels").get(0).path("name").asText(), "the agent advertises its kernel");

        HttpResponse<String> unknown = post("kernel: c_dgemm\nshapes: [{M: 8}]\n");
        assertEquals(400, unknown.statusCode(), unknown.body());
        assertEquals("kernel", Protocol.JSON.readTree(unknown.body()).path("field").asText());

        HttpResponse<String> r = post("""
                name: c-sgemm-it
                kernel: c_sgemm
                shapes: [{M: 128, N: 128, K: 128}]
                strategy: {name: random, budget: 6, seed: 5}
                measure: {minSamples: 5, timeoutMs: 30000, finalists: 0}
                batchSize: 3
                """);
        assertEquals(201, r.statusCode(), r.body());
        String id = Protocol.JSON.readTree(r.body()).path("id").asText();
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertTrue(agent.alive(), "the agent died; see " + agent.log());
            return "done".equals(get("/api/sweeps/" + id).path("state").asText());
        });

        int measured = 0;
        for (String line : Files.readAllLines(data.resolve("records.jsonl"))) {
            Measurement m = Protocol.JSON.readValue(line, Measurement.class);
            if (!m.sweepId().equals(id)) continue;
            measured++;
            assertEquals(Status.OK, m.status(), line);
            assertEquals(5, m.stats().samples(), "one sample per repetition the program timed: " + line);
        }
        // The default configuration is a point of this space: measured as the baseline, it is one of the six trials.
        assertEquals(6, measured, "a budget of six trials, the baseline among them");
        JsonNode entry = get("/api/table?op=c_sgemm&shape=128x128x128").path("entries").get(0);
        System.out.println("c_sgemm table entry: " + entry);
        assertTrue(entry.path("gflops").asDouble() > 0, entry.toString());
        assertFalse(entry.path("speedupOverDefault").isNull(), entry.toString());
        assertEquals(6, Files.list(data.resolve("kernels/c_sgemm/build")).count(), "one binary per configuration");
    }
}
