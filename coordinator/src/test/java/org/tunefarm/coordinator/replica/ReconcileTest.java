package org.tunefarm.coordinator.replica;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
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
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.coordinator.store.RecordLog;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;

/**
 * Two coordinators that each kept records the other lacks (the two halves of a partition) meet:
 * each ends with both sets, every record once, and the candidates both measured counted in
 * {@code measuredTwice}; the coordinator that led before the other joined still leads.
 */
class ReconcileTest {
    static final KernelKey KEY = new KernelKey("sleep", Map.of("unitUs", 100), "fp32");
    final HttpClient http = HttpClient.newHttpClient();

    @TempDir Path dir;

    static Measurement m(long index, String agent, long at) {
        return new Measurement("sw-split", KEY, index, Map.of("a", (int) index % 16, "b", 3), Status.OK,
                Stats.of(new double[] {100 + index, 101 + index, 99 + index}, 8), 0.0, SensorReading.NONE, SensorReading.NONE,
                "", agent, "zen-test", at + index, at + index + 5, 0);
    }

    private static void keep(Path data, List<Measurement> ms) throws IOException {
        try (RecordLog log = new RecordLog(data.resolve("records.jsonl"))) {
            log.append(ms);
        }
    }

    @Test
    void membersThatMeetCopyWhatEachLacksAndCountCandidatesMeasuredOnBothSides() throws Exception {
        // Side one measured candidates 0-1299, side two 1000-2999: 300 on both, by different agents.
        List<Measurement> one = new ArrayList<>();
        List<Measurement> two = new ArrayList<>();
        for (long i = 0; i < 1300; i++) one.add(m(i, "agent-one", 10_000));
        for (long i = 1000; i < 3000; i++) two.add(m(i, "agent-two", 50_000));
        keep(dir.resolve("one"), one);
        keep(dir.resolve("two"), two);
        String cluster = "reconcile-" + UUID.randomUUID();
        CoordinatorConfig base = CoordinatorConfig.defaults().withClusterName(cluster);
        try (Coordinator first = new Coordinator(base.withDataDir(dir.resolve("one")).withPorts(FreePort.pick(), FreePort.pick())).start()) {
            await().atMost(Duration.ofSeconds(60)).until(first::leading);
            try (Coordinator second = new Coordinator(base.withDataDir(dir.resolve("two")).withPorts(FreePort.pick(), FreePort.pick())).start()) {
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).ignoreExceptions().untilAsserted(() -> {
                    for (Coordinator c : List.of(first, second)) {
                        JsonNode h = health(c);
                        assertTrue(h.path("caughtUp").asBoolean(), h.toString());
                        assertEquals(300, h.path("measuredTwice").asInt(), h.toString());
                    }
                    assertEquals(3000, ids(dir.resolve("one")).size());
                    assertEquals(3000, ids(dir.resolve("two")).size());
                });
                assertTrue(first.leading(), "the coordinator that led before the other joined still leads");
                assertTrue(!second.leading());
                for (String side : List.of("one", "two")) {
                    List<String> lines = Files.readAllLines(dir.resolve(side).resolve("records.jsonl"), StandardCharsets.UTF_8);
                    assertEquals(3000, lines.size(), side + " keeps every candidate once");
                }
                // Each log keeps the measurement it had first for a candidate both sides measured.
                assertEquals("agent-one", record(dir.resolve("one"), 1100).agentId());
                assertEquals("agent-two", record(dir.resolve("two"), 1100).agentId());
            }
        }
    }

    private JsonNode health(Coordinator c) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.httpPort() + "/api/health"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return Protocol.JSON.readTree(r.body());
    }

    private static Set<String> ids(Path data) throws IOException {
        Set<String> ids = new HashSet<>();
        for (String line : Files.readAllLines(data.resolve("records.jsonl"), StandardCharsets.UTF_8)) {
            ids.add(Protocol.JSON.readValue(line, Measurement.class).recordId());
        }
        return ids;
    }

    private static Measurement record(Path data, long index) throws IOException {
        for (String line : Files.readAllLines(data.resolve("records.jsonl"), StandardCharsets.UTF_8)) {
            Measurement m = Protocol.JSON.readValue(line, Measurement.class);
            if (m.index() == index) return m;
        }
        throw new AssertionError("no record of candidate " + index);
    }
}
