package org.tunefarm.coordinator.boards;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.util.List;
import java.util.function.BooleanSupplier;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/** One real coordinator, alone in its Hazelcast cluster, for agents on other JVMs; read through REST and its record log. */
final class BoardFarm implements AutoCloseable {
    static final String TOKEN = "board-farm-token";

    private final Path data;
    private final Coordinator coordinator;
    private final HttpClient http = HttpClient.newHttpClient();

    BoardFarm(Path data, long heartbeatMs) throws Exception {
        this.data = data;
        coordinator = new Coordinator(TestFarm.config(data).withTokens(TOKEN, "").withHeartbeatMs(heartbeatMs)).start();
    }

    String bridge() {
        return "127.0.0.1:" + coordinator.bridgePort();
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    /** The registered agent, waiting for it while {@code alive} holds. */
    JsonNode awaitAgent(String id, Duration within, BooleanSupplier alive, String why) {
        JsonNode[] found = new JsonNode[1];
        await().atMost(within).pollInterval(Duration.ofMillis(500)).until(() -> {
            if (!alive.getAsBoolean()) throw new AssertionError(why);
            for (JsonNode a : get("/api/agents")) if (a.path("agentId").asText().equals(id)) found[0] = a;
            return found[0] != null;
        });
        return found[0];
    }

    String submit(String yaml) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }

    void awaitDone(String sweepId, Duration within, BooleanSupplier alive, String why) {
        await().atMost(within).pollInterval(Duration.ofMillis(500)).until(() -> {
            if (!alive.getAsBoolean()) throw new AssertionError(why);
            return "done".equals(get("/api/sweeps/" + sweepId).path("state").asText());
        });
    }

    /** The sweep's records, from the fsynced log. */
    List<Measurement> records(String sweepId) throws IOException {
        List<Measurement> out = new ArrayList<>();
        for (String line : Files.readAllLines(data.resolve("records.jsonl"))) {
            Measurement m = Protocol.JSON.readValue(line, Measurement.class);
            if (m.sweepId().equals(sweepId)) out.add(m);
        }
        return out;
    }

    @Override public void close() throws Exception {
        coordinator.close();
    }
}
