package org.tunefarm.coordinator.lease;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.shareddata.AsyncMap;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.protocol.Protocol;

/**
 * When the halves of a healed partition merge, the half that merges into the other may have led
 * and left its own view of a sweep in the cluster map (the last thing its leader wrote, or a write
 * in flight as the merge began). A sweep the real leader already finished changes no more, so
 * nothing the leader does later would correct that entry: REST would show the sweep running for
 * good. The leader writes its view again once a member has joined. Here the stale entry is written
 * straight into the map, as the merged member's write would land, and a member then joins.
 */
class MergedViewTest {
    static final String SWEEP = """
            name: merged
            kernel: sleep
            shapes: [{unitUs: 1000}]
            space: {a: [1, 2], b: [3]}
            strategy: {name: exhaustive, budget: 0}
            """;

    final HttpClient http = HttpClient.newHttpClient();
    @TempDir Path dir;

    @Test void aMemberJoiningMakesTheLeaderWriteItsViewOverAStaleEntry() throws Exception {
        CoordinatorConfig base = CoordinatorConfig.defaults().withClusterName("merged-" + UUID.randomUUID()).withTokens("merged-token", "");
        try (Coordinator leader = new Coordinator(base.withDataDir(dir.resolve("one")).withPorts(FreePort.pick(), FreePort.pick())).start()) {
            await().atMost(Duration.ofSeconds(60)).until(leader::leading);
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url(leader, "/api/sweeps")))
                    .POST(HttpRequest.BodyPublishers.ofString(SWEEP)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, r.statusCode(), r.body());
            String id = Protocol.JSON.readTree(r.body()).path("id").asText();
            String state = await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> get(leader, "/api/sweeps/" + id).path("state").asText(),
                    s -> !s.isEmpty());

            // Another term's view: the same sweep, cancelled.
            ObjectNode stale = (ObjectNode) get(leader, "/api/sweeps/" + id);
            stale.put("state", "cancelled");
            leader.vertx().sharedData().<String, String>getAsyncMap(FarmVerticle.SWEEPS_MAP)
                    .compose((AsyncMap<String, String> m) -> m.put(id, Protocol.write(stale))).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertEquals("cancelled", get(leader, "/api/sweeps/" + id).path("state").asText(), "the stale entry is what REST shows");

            try (Coordinator joined = new Coordinator(base.withDataDir(dir.resolve("two")).withPorts(FreePort.pick(), FreePort.pick())).start()) {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                        .until(() -> get(joined, "/api/sweeps/" + id).path("state").asText().equals(state));
                assertTrue(leader.leading(), "the first coordinator still leads");
                assertEquals(state, get(leader, "/api/sweeps/" + id).path("state").asText());
            }
        }
    }

    private static String url(Coordinator c, String path) {
        return "http://127.0.0.1:" + c.httpPort() + path;
    }

    private JsonNode get(Coordinator c, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url(c, path))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }
}
