package org.tunefarm.coordinator.metrics;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.protocol.Protocol;

/**
 * {@code /metrics} scraped during a real sweep (a real coordinator, a real agent process): the
 * farm's families and Vert.x's are there with values that follow what happened, labels stay
 * bounded, and killing the agent mid-lease shows up as an agent-lost lease expiry.
 */
class MetricsScrapeTest {
    static final String READ = "metrics-read-token";
    static final String FARM = "metrics-farm-token";
    static final String AGENT = "scraped-board";
    @TempDir static Path data;
    static Coordinator coordinator;
    static AgentProcess agent;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll static void start() throws Exception {
        CoordinatorConfig c = TestFarm.config(data).withTokens(FARM, "");
        coordinator = new Coordinator(c.withDoor(c.door().withReadToken(READ))).start();
        agent = AgentProcess.start(AGENT, List.of("127.0.0.1:" + c.bridgePort()), FARM, data.resolve("agent.log"), List.of());
    }

    @AfterAll static void stop() throws Exception {
        if (agent != null) agent.close();
        if (coordinator != null) coordinator.close();
    }

    static HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path));
        if (token != null) b.header("Authorization", "Bearer " + token);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String scrape() throws Exception {
        HttpResponse<String> r = get("/metrics", READ);
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    /** Every sample of a family, by its label text: {@code {status="OK"} -> 12.0}. */
    static Map<String, Double> samples(String text, String name) {
        Map<String, Double> out = new TreeMap<>();
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? ([-+0-9.eE]+|NaN)$").matcher(text);
        while (m.find()) out.put(m.group(1) == null ? "" : m.group(1), Double.parseDouble(m.group(2)));
        return out;
    }

    static OptionalDouble value(String text, String name, String labels) {
        Double v = samples(text, name).get(labels);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    @Test void scrapeDuringASweepShowsTheFarmAndVertxFamilies() throws Exception {
        assertEquals(401, get("/metrics", null).statusCode(), "metrics are a read: they need the read token");
        await().atMost(Duration.ofSeconds(90)).until(() -> samples(scrape(), "tunefarm_agents_online").containsValue(1.0));
        String deviceClass = samples(scrape(), "tunefarm_agents_online").keySet().iterator().next();
        assertTrue(deviceClass.startsWith("{device_class=\""), deviceClass);
        assertEquals(404, get("/api/nowhere", READ).statusCode()); // one refusal to count

        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString("""
                        name: scraped
                        kernel: sleep
                        shapes: [{unitUs: 2000}]
                        strategy: {name: random, budget: 400, seed: 9}
                        measure: {minSamples: 3, minSampleMs: 20, maxWarmupMs: 20, timeoutMs: 10000, finalists: 0}
                        batchSize: 50
                        """)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        String id = Protocol.JSON.readTree(r.body()).path("id").asText();

        // During the sweep: records are counted and fsynced, and the agent holds a lease.
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(300)).until(() -> {
            String t = scrape();
            return value(t, "tunefarm_records_total", "{status=\"OK\"}").orElse(0) >= 5
                    && value(t, "tunefarm_leases_in_flight", "").orElse(0) == 1;
        });
        String during = scrape();
        System.out.println("--- /metrics during sweep " + id + " (first 30 lines) ---");
        during.lines().limit(30).forEach(System.out::println);

        assertTrue(value(during, "tunefarm_record_log_sync_seconds_count", "").orElse(0) >= 1, "fsyncs are timed");
        assertTrue(value(during, "tunefarm_record_log_sync_seconds_sum", "").orElse(0) > 0);
        assertFalse(samples(during, "tunefarm_record_log_sync_seconds_bucket").isEmpty(), "a histogram, so quantiles can be taken");
        assertEquals(0.0, value(during, "tunefarm_replication_lag_records", "").orElse(-1), "one coordinator lacks nothing");
        assertEquals(0.0, value(during, "tunefarm_lease_expiries_total", "{reason=\"deadline\"}").orElse(-1));
        assertEquals(0.0, value(during, "tunefarm_lease_expiries_total", "{reason=\"agent-lost\"}").orElse(-1));
        assertTrue(value(during, "tunefarm_refusals_total", "{door=\"rest\",kind=\"404\"}").orElse(0) >= 1, "the 404 above was counted");
        assertTrue(value(during, "tunefarm_refusals_total", "{door=\"rest\",kind=\"401\"}").orElse(0) >= 1, "the tokenless scrape was counted");
        // Vert.x's own: HTTP by route template, event bus by address.
        assertTrue(samples(during, "vertx_http_server_requests_total").keySet().stream().anyMatch(k -> k.contains("route=\"/metrics\"")),
                samples(during, "vertx_http_server_requests_total").toString());
        assertTrue(samples(during, "vertx_eventbus_processed_total").keySet().stream().anyMatch(k -> k.contains("tunefarm.")),
                samples(during, "vertx_eventbus_processed_total").toString());
        // Bounded labels: no agent id, no sweep id, no candidate in any label.
        for (String line : during.lines().filter(l -> !l.startsWith("#")).toList()) {
            assertFalse(line.contains(AGENT) || line.contains(id) || line.contains("index="), "an unbounded label: " + line);
        }

        // The agent dies holding its lease: the lease comes back as an agent-lost expiry, and the class has no one online.
        double before = value(during, "tunefarm_records_total", "{status=\"OK\"}").orElse(0);
        agent.kill();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            String t = scrape();
            return value(t, "tunefarm_lease_expiries_total", "{reason=\"agent-lost\"}").orElse(0) == 1
                    && value(t, "tunefarm_leases_in_flight", "").orElse(-1) == 0
                    && value(t, "tunefarm_agents_online", deviceClass).orElse(-1) == 0;
        });
        assertTrue(value(scrape(), "tunefarm_records_total", "{status=\"OK\"}").orElse(0) >= before, "a counter never goes back");
    }
}
