package org.tunefarm.coordinator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Objective;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Work;

/**
 * A sustained sweep through a real coordinator and a real agent process: the leases the agent is
 * lent (seen on the coordinator's event bus) name the objective, exploring runs short measurements
 * and the finalists' rounds ask for the sustained run; the table's sustained entry exists exactly
 * when the agent reported sustained times (an agent that does not run sustained reports none, and
 * then the table has no sustained entry, never a latency figure standing in for one).
 */
class ObjectivesFarmTest {
    static final String TOKEN = "objectives-token";
    static final HttpClient http = HttpClient.newHttpClient();
    @TempDir Path data;
    Coordinator coordinator;
    AgentProcess agent;

    @AfterEach void stop() throws Exception {
        if (agent != null) agent.close();
        if (coordinator != null) coordinator.close();
    }

    JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    HttpResponse<String> post(String yaml) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test void aSustainedSweepsFinalistLeasesAskForTheSustainedRun() throws Exception {
        CoordinatorConfig config = CoordinatorConfig.defaults().withDataDir(data).withPorts(FreePort.pick(), FreePort.pick()).withTokens(TOKEN, "")
                .withClusterName("objectives-" + java.util.UUID.randomUUID());
        coordinator = new Coordinator(config).start();
        // Every lease the coordinator lends, as the agent receives it: the answers to its pulls.
        List<Lease> lent = new CopyOnWriteArrayList<>();
        // The farm answers the bridge in JSON text (an object only to a request made as one).
        coordinator.vertx().eventBus().addOutboundInterceptor(ctx -> {
            String text = ctx.body() instanceof String t ? t : ctx.body() instanceof JsonObject j ? j.encode() : null;
            if (text != null && text.contains("\"lease\"")) {
                try {
                    if (Protocol.JSON.readTree(text).path("lease").isObject()) {
                        Lease l = Protocol.JSON.readValue(text, Work.class).lease();
                        if (l != null) lent.add(l);
                    }
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
            }
            ctx.next();
        });

        HttpResponse<String> refused = post("kernel: sleep\nshapes: [{unitUs: 100}]\nobjective: sustained\nsustainedSeconds: 0\n");
        assertEquals(400, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("sustainedSeconds"), refused.body());

        HttpResponse<String> accepted = post("""
                kernel: sleep
                shapes: [{unitUs: 200}]
                space: {a: [4, 5], b: [10, 11], mode: [fast]}
                strategy: {name: exhaustive, budget: 0}
                measure: {minSamples: 3, minSampleMs: 2, maxWarmupMs: 20, timeoutMs: 10000, finalists: 2, cooldownTimeoutMs: 1000}
                objective: sustained
                sustainedSeconds: 0.5
                batchSize: 3
                """);
        assertEquals(201, accepted.statusCode(), accepted.body());
        String id = Protocol.JSON.readTree(accepted.body()).path("id").asText();
        JsonNode status = get("/api/sweeps/" + id);
        assertEquals("sustained", status.path("spec").path("objective").asText(), status.toString());
        assertEquals(0.5, status.path("spec").path("sustainedSeconds").asDouble());

        agent = AgentProcess.start("agent-1", List.of("127.0.0.1:" + config.bridgePort()), TOKEN, data.resolve("agent-1.log"), List.of());
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertTrue(agent.alive(), "the agent process died; see " + data);
            return "done".equals(get("/api/sweeps/" + id).path("state").asText());
        });

        List<Lease> ours = lent.stream().filter(l -> l.sweepId().equals(id)).toList();
        assertFalse(ours.isEmpty(), "leases were seen on the event bus");
        assertTrue(ours.stream().allMatch(l -> l.objective() == Objective.SUSTAINED), "every lease names the objective");
        assertTrue(ours.stream().filter(l -> l.round() == 0).allMatch(l -> l.sustainedSeconds() == 0), "exploring measures short bursts");
        List<Lease> finalists = ours.stream().filter(l -> l.round() > 0).toList();
        assertFalse(finalists.isEmpty(), "the finalists were lent");
        for (Lease f : finalists) {
            assertEquals(0.5, f.sustainedSeconds());
            assertEquals(2, f.candidates().size());
        }

        List<Measurement> records = Files.readAllLines(data.resolve("records.jsonl")).stream()
                .map(line -> { try { return Protocol.JSON.readValue(line, Measurement.class); } catch (java.io.IOException e) { throw new IllegalStateException(e); } })
                .filter(m -> m.sweepId().equals(id)).toList();
        assertTrue(records.stream().anyMatch(m -> m.round() > 0), "finalists were recorded");
        boolean ranSustained = records.stream().anyMatch(m -> Objective.SUSTAINED.figure(m) != null);
        JsonNode entries = get("/api/table?op=sleep").path("entries");
        List<String> objectives = new java.util.ArrayList<>();
        entries.forEach(e -> objectives.add(e.path("objective").asText()));
        assertTrue(objectives.contains("latency"), entries.toString());
        assertEquals(ranSustained, objectives.contains("sustained"),
                "a sustained entry exactly when the agent reported sustained times: " + entries);
        entries.forEach(e -> {
            if (!e.path("objective").asText().equals("sustained")) return;
            assertTrue(e.path("sustainedNs").isNumber() && e.path("round").asInt() > 0, e.toString());
        });
    }
}
