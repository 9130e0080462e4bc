package org.tunefarm.coordinator.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.CoordinatorProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.table.BestKernelTable;
import org.tunefarm.table.TableEntry;

import static org.awaitility.Awaitility.await;

/**
 * Kill the whole farm (coordinator and agents, with -9) halfway through a sleep sweep, start it
 * again on the same data folder: the sweep resumes, only what was not recorded is measured, and
 * the table ends as an uninterrupted run of the same sweep ends (same winners; the times are
 * measured anew, so they are compared as the table the records derive).
 */
class WholeFarmRestartTest {
    static final String SWEEP = """
            name: restart
            kernel: sleep
            shapes: [{unitUs: 500}, {unitUs: 700}]
            space: {a: [3, 4, 5, 6], b: [9, 10, 11, 12, 13], mode: [slow, fast]}
            strategy: {name: exhaustive, budget: 0}
            measure: {minSamples: 3, minSampleMs: 2, maxWarmupMs: 10, timeoutMs: 10000, finalists: 0}
            batchSize: 4
            """;
    static final int CANDIDATES = 2 * (4 * 5 * 2 + 1);
    @TempDir Path dir;
    final HttpClient http = HttpClient.newHttpClient();
    final String token = "restart-" + UUID.randomUUID();

    /** A coordinator and two agents on loopback, all real processes. */
    final class Farm implements AutoCloseable {
        final CoordinatorProcess coordinator;
        final List<AgentProcess> agents = new ArrayList<>();

        Farm(Path data, int http, int bridge) throws Exception {
            coordinator = CoordinatorProcess.start(data, http, bridge, token, "restart-" + UUID.randomUUID(), data.resolve("coordinator.log"));
            await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(() -> get("/api/health").path("leader").asBoolean());
            for (int i = 0; i < 2; i++) {
                agents.add(AgentProcess.start("agent-" + i, List.of("127.0.0.1:" + bridge), token, data.resolve("agent-" + i + ".log"), List.of()));
            }
        }

        JsonNode get(String path) throws IOException, InterruptedException {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) throw new IOException(path + ": " + r.statusCode() + " " + r.body());
            return Protocol.JSON.readTree(r.body());
        }

        String submit() throws Exception {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                    .POST(HttpRequest.BodyPublishers.ofString(SWEEP)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, r.statusCode(), r.body());
            return Protocol.JSON.readTree(r.body()).path("id").asText();
        }

        void awaitDone(String id) {
            await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> "done".equals(get("/api/sweeps/" + id).path("state").asText()));
        }

        void kill() {
            agents.forEach(AgentProcess::kill);
            coordinator.kill();
        }

        @Override public void close() {
            agents.forEach(AgentProcess::close);
            coordinator.close();
        }
    }

    static List<Measurement> records(Path data) throws IOException {
        List<Measurement> out = new ArrayList<>();
        Path f = data.resolve("records.jsonl");
        if (!Files.exists(f)) return out;
        for (String line : Files.readAllLines(f)) if (!line.isBlank()) out.add(Protocol.JSON.readValue(line, Measurement.class));
        return out;
    }

    static Set<String> winners(JsonNode table) {
        Set<String> out = new HashSet<>();
        for (JsonNode e : table.path("entries")) {
            // Parameter order in JSON is not meaning: compare the maps.
            out.add(e.path("kernel").path("shape").toString() + " " + new java.util.TreeMap<>(Protocol.JSON.convertValue(e.path("params"), java.util.Map.class)));
        }
        return out;
    }

    @Test void aKilledFarmResumesItsSweepAndEndsWithTheUninterruptedTable() throws Exception {
        Path once = dir.resolve("uninterrupted");
        Set<String> expected;
        try (Farm farm = new Farm(once, FreePort.pick(), FreePort.pick())) {
            farm.awaitDone(farm.submit());
            expected = winners(farm.get("/api/table?op=sleep"));
        }
        assertEquals(CANDIDATES, records(once).size());

        Path data = dir.resolve("interrupted");
        int httpPort = FreePort.pick(), bridgePort = FreePort.pick();
        String id;
        int before;
        try (Farm farm = new Farm(data, httpPort, bridgePort)) {
            id = farm.submit();
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100)).until(() -> records(data).size() >= CANDIDATES / 3);
            farm.kill();
            before = records(data).size();
        }
        assertTrue(before > 0 && before < CANDIDATES, "killed halfway: " + before + " of " + CANDIDATES);

        try (Farm farm = new Farm(data, httpPort, bridgePort)) {
            farm.awaitDone(id);
            List<Measurement> all = records(data);
            assertEquals(CANDIDATES, all.size(), "every candidate recorded once, across the restart");
            assertEquals(CANDIDATES, all.stream().map(Measurement::recordId).distinct().count());
            assertEquals(0, farm.get("/api/health").path("repeats").asLong(), "nothing recorded before the kill was measured again");
            JsonNode table = farm.get("/api/table?op=sleep");
            assertEquals(expected, winners(table), "the same winners as the uninterrupted run");
            BestKernelTable derived = BestKernelTable.EMPTY;
            for (Measurement m : all) derived = derived.with(TableEntry.of(m, 0));
            for (JsonNode e : table.path("entries")) {
                TableEntry served = Protocol.JSON.convertValue(e, TableEntry.class);
                TableEntry mine = derived.lookup(served.deviceClass(), served.kernel()).orElseThrow();
                assertEquals(mine.params(), served.params());
                assertEquals(mine.stats(), served.stats(), "the table is the one its records derive");
            }
        }
    }
}
