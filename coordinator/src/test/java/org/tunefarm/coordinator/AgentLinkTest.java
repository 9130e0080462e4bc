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
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.protocol.Protocol;

/**
 * The real agent over a whole sweep: it enrolls once, keeps one connection for every lease of the
 * sweep, and no report of it is refused (the closing {@code done} of each lease included).
 */
class AgentLinkTest {
    static final String TOKEN = "link-token";
    static final String ADMIN = "link-admin";
    static final HttpClient http = HttpClient.newHttpClient();
    @TempDir Path data;
    Coordinator coordinator;
    AgentProcess a1;
    AgentProcess a2;

    @AfterEach void stop() throws Exception {
        if (a1 != null) a1.close();
        if (a2 != null) a2.close();
        if (coordinator != null) coordinator.close();
    }

    JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path))
                .header("Authorization", "Bearer " + ADMIN).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    String submit(String yaml) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .header("Authorization", "Bearer " + ADMIN).POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }

    /**
     * WARNING lines logged by tunefarm's code (java.util.logging writes the source line first), not
     * the JVM's own notes about incubator modules or native access.
     */
    static List<String> ourWarnings(List<String> log) {
        List<String> out = new java.util.ArrayList<>();
        for (int i = 1; i < log.size(); i++) {
            if ((log.get(i).startsWith("WARNING:") || log.get(i).startsWith("SEVERE:")) && log.get(i - 1).contains(" org.tunefarm.")) {
                out.add(log.get(i - 1) + " " + log.get(i));
            }
        }
        return out;
    }

    @Test void eachAgentKeepsOneConnectionForAWholeSweepAndNoReportIsRefused() throws Exception {
        coordinator = new Coordinator(TestFarm.config(data).withTokens(TOKEN, ADMIN)).start();
        List<String> bridge = List.of("127.0.0.1:" + coordinator.bridgePort());
        a1 = AgentProcess.start("link-1", bridge, TOKEN, data.resolve("link-1.log"), List.of());
        a2 = AgentProcess.start("link-2", bridge, TOKEN, data.resolve("link-2.log"), List.of());
        await().atMost(Duration.ofSeconds(90)).until(() -> get("/api/agents").size() == 2);
        String id = submit("""
                name: link
                kernel: sleep
                shapes: [{unitUs: 500}]
                space: {a: [3, 4, 5, 6], b: [10, 11, 12], mode: [slow, fast]}
                strategy: {name: exhaustive, budget: 0}
                measure: {minSamples: 3, minSampleMs: 2, maxWarmupMs: 20, timeoutMs: 10000, finalists: 2}
                batchSize: 2
                """);
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500)).until(() -> {
            assertTrue(a1.alive() && a2.alive(), "an agent process died; see " + data);
            return "done".equals(get("/api/sweeps/" + id).path("state").asText());
        });

        JsonNode bridgeStats = get("/api/health").path("bridge");
        long leases = 0;
        for (AgentProcess a : List.of(a1, a2)) {
            List<String> log = Files.readAllLines(a.log());
            leases += log.stream().filter(l -> l.contains("lease ") && l.contains(" candidates of ")).count();
            assertEquals(1, log.stream().filter(l -> l.contains("registered with")).count(), a.id() + " registered once: " + log);
            assertEquals(1, log.stream().filter(l -> l.contains("enrolled as")).count(), a.id() + " enrolled once");
            assertEquals(List.of(), ourWarnings(log), a.id() + " logged a warning");
        }
        System.out.printf("agent link: %d agents, %d leases, bridge %s, refusals %s%n", 2, leases, bridgeStats, coordinator.refusals().snapshot());
        assertTrue(leases >= 13, "the sweep took many leases: " + leases);
        assertEquals(2, bridgeStats.path("connections").asLong(), "one connection per agent for the whole sweep: " + bridgeStats);
        assertEquals(2, bridgeStats.path("registrations").asLong(), bridgeStats.toString());
        assertEquals(2, bridgeStats.path("open").asLong(), bridgeStats.toString());
        assertEquals(Map.of(), coordinator.refusals().snapshot(), "nothing was refused");

        // Each agent's credential: in a file only its user reads; the farm keeps only a hash of it.
        String kept = Files.readString(data.resolve("credentials.jsonl"));
        for (AgentProcess a : List.of(a1, a2)) {
            Path file = a.credentialFile();
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
            String credential = Files.readString(file).strip();
            assertTrue(credential.length() >= 40, "256 random bits");
            assertFalse(kept.contains(credential), "the coordinator never writes a credential down");
            assertTrue(kept.contains("\"agentId\":\"" + a.id() + "\""), kept);
        }
        List<String> audit = Files.readAllLines(data.resolve("audit.jsonl"));
        assertEquals(2, audit.stream().filter(l -> l.contains("\"action\":\"agent.enroll\"") && l.contains("\"credential\":\"farm-token\"")).count(), audit.toString());
        assertEquals(1, audit.stream().filter(l -> l.contains("\"action\":\"sweep.start\"") && l.contains("\"credential\":\"admin-token\"") && l.contains(id)).count(),
                audit.toString());
    }
}
