package org.tunefarm.coordinator.dashboard;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.FreePort;

/**
 * The dashboard's data does not live on the leader: two coordinators in one cluster, the agent
 * on the leader's bridge, and the follower's feed, search points and metrics show the whole farm.
 */
class FollowerDashboardTest {
    static final String TOKEN = "follower-token";
    @TempDir static Path data;
    static Coordinator leader;
    static Coordinator follower;
    static AgentProcess agent;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll static void start() throws Exception {
        String cluster = "follower-dash-" + UUID.randomUUID();
        Coordinator one = new Coordinator(config(data.resolve("one"), cluster)).start();
        Coordinator two = new Coordinator(config(data.resolve("two"), cluster)).start();
        // Two members that started alone merge into one cluster; then exactly one leads.
        await().atMost(Duration.ofSeconds(90)).until(() -> one.leading() != two.leading());
        leader = one.leading() ? one : two;
        follower = one.leading() ? two : one;
        agent = AgentProcess.start("lead-board", List.of("127.0.0.1:" + leader.bridgePort()), TOKEN, data.resolve("agent.log"), List.of());
    }

    static CoordinatorConfig config(Path dir, String cluster) throws Exception {
        return CoordinatorConfig.defaults().withDataDir(dir).withPorts(FreePort.pick(), FreePort.pick()).withTokens(TOKEN, "").withClusterName(cluster);
    }

    @AfterAll static void stop() throws Exception {
        if (agent != null) agent.close();
        if (follower != null) follower.close();
        if (leader != null) leader.close();
    }

    static String get(Coordinator c, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.httpPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return r.body();
    }

    /** The first {@code state} event of a coordinator's live feed. */
    static JsonObject firstState(Coordinator c) throws Exception {
        HttpResponse<Stream<String>> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.httpPort() + "/api/feed")).build(),
                HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        try (Stream<String> lines = r.body()) {
            Iterator<String> it = lines.iterator();
            boolean state = false;
            while (it.hasNext()) {
                String line = it.next();
                if (line.equals("event: state")) state = true;
                else if (state && line.startsWith("data: ")) return new JsonObject(line.substring(6));
            }
        }
        throw new AssertionError("the feed ended without a state event");
    }

    @Test void followerServesTheWholeFarm() throws Exception {
        assertTrue(leader.leading() && !follower.leading(), "one coordinator leads");
        await().atMost(Duration.ofSeconds(90)).until(() -> get(follower, "/api/agents").contains("lead-board"));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + follower.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString("""
                        name: via-follower
                        kernel: sleep
                        shapes: [{unitUs: 500}]
                        strategy: {name: random, budget: 20, seed: 2}
                        measure: {minSamples: 3, minSampleMs: 5, maxWarmupMs: 20, timeoutMs: 10000, finalists: 0}
                        batchSize: 5
                        """)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        String id = new JsonObject(r.body()).getString("id");
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> new JsonObject(get(follower, "/api/sweeps/" + id)).getString("state").equals("done"));

        JsonObject sweep = new JsonObject(get(follower, "/api/sweeps/" + id));
        JsonObject search = sweep.getJsonArray("searches").getJsonObject(0);
        String query = "?deviceClass=" + enc(search.getString("deviceClass")) + "&kernel=" + enc(search.getString("kernel"));
        // The follower's replica has every record the leader made durable (the acknowledgement waited for it).
        await().atMost(Duration.ofSeconds(30)).until(() -> new JsonObject(get(follower, "/api/sweeps/" + id + "/points" + query)).getJsonArray("points").size()
                == new JsonObject(get(leader, "/api/sweeps/" + id + "/points" + query)).getJsonArray("points").size());
        JsonArray points = new JsonObject(get(follower, "/api/sweeps/" + id + "/points" + query)).getJsonArray("points");
        assertTrue(points.size() >= 20, "every trial and the baseline: " + points.size());
        assertTrue(points.stream().map(JsonObject.class::cast).allMatch(p -> p.getString("agent").equals("lead-board") && p.getString("sweep").equals(id)));

        // The feed's view is refreshed once a second: the sweep's end reaches it within one refresh.
        JsonObject[] latest = new JsonObject[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            latest[0] = firstState(follower);
            return latest[0].getJsonArray("sweeps").stream().map(JsonObject.class::cast)
                    .anyMatch(x -> x.getString("id").equals(id) && x.getString("state").equals("done"));
        });
        JsonObject state = latest[0];
        JsonObject a = state.getJsonArray("agents").getJsonObject(0);
        assertEquals("lead-board", a.getString("id"));
        assertTrue(List.of("idle", "measuring").contains(a.getString("state")), a.encode());
        assertTrue(a.getValue("tempC") == null || a.getDouble("tempC") != 0.0, "no sensor is absent, never 0: " + a.encode());
        JsonObject s = state.getJsonArray("sweeps").stream().map(JsonObject.class::cast).filter(x -> x.getString("id").equals(id)).findFirst().orElseThrow();
        assertEquals("done", s.getString("state"));
        assertEquals(0.0, s.getJsonArray("searches").getJsonObject(0).getDouble("etaS"), "a done search has nothing left");
        assertTrue(s.getDouble("rate") > 0, "records arrived within the last minute: " + s.encode());
        assertEquals(points.size(), state.getLong("records").intValue(), "the follower counts the records of its own replica");

        // The gauges are refreshed on their own period (FarmMetrics.REFRESH_MS), not with the feed:
        // read once right after the feed showed the agent, the agents gauge was once still empty.
        String online = "tunefarm_agents_online{device_class=\"" + search.getString("deviceClass") + "\"} 1.0";
        String[] scraped = new String[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> (scraped[0] = get(follower, "/metrics")).contains(online));
        String metrics = scraped[0];
        assertTrue(metrics.contains("tunefarm_replication_lag_records 0.0"), "the follower caught up");
        assertFalse(metrics.contains("tunefarm_records_total{status=\"OK\"} 0.0"), "copies are records made durable here too");
    }

    static String enc(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }
}
