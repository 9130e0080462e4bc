package org.tunefarm.coordinator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.bridge.RawBridge;
import org.tunefarm.coordinator.door.TlsFiles;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.kernel.SleepSpec;
import org.tunefarm.protocol.Protocol;

/**
 * The farm behind TLS, with its own certificate: a real agent process that trusts it runs a sleep
 * sweep over the TLS bridge, the sweep is started and read over HTTPS with the admin and read
 * tokens, and plain TCP or HTTP to either door gets nowhere.
 */
class TlsFarmTest {
    static final String TOKEN = "tls-farm-token";
    static final String ADMIN = "tls-admin";
    static final String READ = "tls-read";
    @TempDir static Path data;
    static TestCertificate cert;
    static Coordinator coordinator;
    static AgentProcess agent;
    static HttpClient https;

    @BeforeAll static void start() throws Exception {
        cert = TestCertificate.create(data.resolve("tls"));
        CoordinatorConfig c = TestFarm.config(data).withTokens(TOKEN, ADMIN);
        coordinator = new Coordinator(c.withDoor(c.door().withReadToken(READ).withTls(new TlsFiles(cert.certFile(), cert.keyFile())))).start();
        https = HttpClient.newBuilder().sslContext(cert.clientContext()).connectTimeout(Duration.ofSeconds(5)).build();
        agent = AgentProcess.start("tls-agent", List.of("127.0.0.1:" + coordinator.bridgePort()), TOKEN, data.resolve("agent.log"),
                List.of("--trust", cert.certFile().toString()));
    }

    @AfterAll static void stop() throws Exception {
        if (agent != null) agent.close();
        if (coordinator != null) coordinator.close();
    }

    static HttpResponse<String> call(String method, String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + coordinator.httpPort() + path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) b.header("Authorization", "Bearer " + token);
        return https.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = call("GET", path, null, READ);
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    @Test void aSleepSweepRunsOverTlsWithARealAgent() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            assertTrue(agent.alive(), "the agent exited; see " + agent.log());
            return get("/api/agents").size() == 1;
        });
        // A 1 ms unit: a sleep's wake-up on a busy machine can be late by a few hundred microseconds,
        // and with a 100 us unit a=4 (200 us) measured faster than a=5 (100 us) in a full suite,
        // with three 1 ms samples and again with five 5 ms samples.
        String spec = "name: tls-sleep\nkernel: sleep\nshapes: [{unitUs: 1000}]\nspace: {a: [4, 5, 6], b: [11], mode: [fast]}\n"
                + "strategy: {name: exhaustive, budget: 0}\nmeasure: {minSamples: 5, minSampleMs: 5, maxWarmupMs: 10, timeoutMs: 10000, finalists: 0}\nbatchSize: 4\n";
        assertEquals(401, call("POST", "/api/sweeps", spec, READ).statusCode(), "the read token does not write");
        HttpResponse<String> created = call("POST", "/api/sweeps", spec, ADMIN);
        assertEquals(201, created.statusCode(), created.body());
        String id = Protocol.JSON.readTree(created.body()).path("id").asText();
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertTrue(agent.alive(), "the agent exited; see " + agent.log());
            return "done".equals(get("/api/sweeps/" + id).path("state").asText());
        });
        assertEquals(4, Files.readAllLines(data.resolve("records.jsonl")).size(), "three points and the baseline");
        JsonNode entry = get("/api/table?op=sleep").path("entries").get(0);
        assertEquals(Map.of("a", 5, "b", 11, "mode", "fast"), Protocol.JSON.convertValue(entry.path("params"), Map.class));
        assertTrue(entry.path("stats").path("medianNs").asDouble() >= SleepSpec.sleepMicros(
                new org.tunefarm.kernel.KernelKey("sleep", Map.of("unitUs", 1000), "fp32"), SleepSpec.OPTIMUM) * 1000.0);
    }

    @Test void plainTcpAndPlainHttpGetNowhere() throws Exception {
        try (RawBridge plain = new RawBridge(coordinator.bridgePort(), 3000)) {
            plain.write(RawBridge.send(Protocol.REGISTER, TOKEN, new JsonObject()));
            assertInstanceOf(RawBridge.Closed.class, plain.read(), "a plain client is not served");
        }
        HttpClient plainHttp = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        assertThrows(java.io.IOException.class, () -> plainHttp.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/health"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()));
        try (RawBridge tls = new RawBridge(cert.clientContext(), coordinator.bridgePort(), 5000)) {
            RawBridge.Frame pong = assertInstanceOf(RawBridge.Frame.class, tls.request(new JsonObject().put("type", "ping")));
            assertEquals("pong", pong.type());
        }
    }
}
