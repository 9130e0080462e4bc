package org.tunefarm.coordinator.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.ScriptedAgent;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Pull;

/**
 * A real coordinator sent what no honest agent sends, over raw sockets: each bad frame is refused
 * with an error frame or a closed connection, and nothing reaches the record log.
 */
class BridgeHardeningTest {
    static final String TOKEN = "hardening-token";
    @TempDir static Path data;
    static Coordinator coordinator;
    static int port;
    static Path records;

    @BeforeAll static void start() throws Exception {
        CoordinatorConfig config = TestFarm.config(data).withTokens(TOKEN, "").withHeartbeatMs(60_000);
        config = config.withDoor(config.door().withFrameLimits(64 * 1024, 500));
        coordinator = new Coordinator(config).start();
        port = coordinator.bridgePort();
        records = data.resolve("records.jsonl");
    }

    @AfterAll static void stop() throws Exception {
        if (coordinator != null) coordinator.close();
    }

    static RawBridge open() throws Exception {
        return new RawBridge(port, 3000);
    }

    static JsonObject err(RawBridge.Answer a) {
        RawBridge.Frame f = assertInstanceOf(RawBridge.Frame.class, a);
        assertEquals("err", f.type(), f.frame().encode());
        return f.frame();
    }

    static long recordLines() throws Exception {
        return Files.exists(records) ? Files.readAllLines(records).size() : 0;
    }

    static String submit(String yaml) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }

    @Test void garbageAndLyingLengthsCloseTheConnectionAtOnce() throws Exception {
        try (RawBridge b = open()) {
            b.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
            assertInstanceOf(RawBridge.Closed.class, b.read(), "0x47455420 bytes declared: closed, nothing buffered");
        }
        try (RawBridge b = open()) {
            b.write(Buffer.buffer().appendInt(-7).getBytes());
            assertInstanceOf(RawBridge.Closed.class, b.read());
        }
        try (RawBridge b = open()) {
            byte[] big = new byte[64 * 1024 + 1];
            java.util.Arrays.fill(big, (byte) ' ');
            b.write(Buffer.buffer().appendInt(big.length).appendBytes(big).getBytes());
            assertInstanceOf(RawBridge.Closed.class, b.read(), "over the frame limit");
        }
    }

    @Test void aFrameThatNeverCompletesIsClosedAfterTheFrameTimeout() throws Exception {
        try (RawBridge b = open()) {
            long t0 = System.nanoTime();
            b.write(Buffer.buffer().appendInt(100).appendString("{\"type\":").getBytes());
            assertInstanceOf(RawBridge.Closed.class, b.read());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= 400 && ms < 2900, "closed after about 500 ms, took " + ms);
        }
    }

    @Test void nonJsonAndNonObjectFramesClose() throws Exception {
        for (String payload : new String[] {"not json", "[1,2]", "\"send\"", "{\"type\":\"send\"} trailing", "{\"type\":\"ping\",\"type\":\"send\"}", "{\"a\":NaN}"}) {
            try (RawBridge b = open()) {
                b.write(RawBridge.frame(payload));
                assertInstanceOf(RawBridge.Closed.class, b.read(), payload);
            }
        }
    }

    @Test void onlySendAndPingAreAccepted() throws Exception {
        try (RawBridge b = open()) {
            RawBridge.Frame pong = assertInstanceOf(RawBridge.Frame.class, b.request(new JsonObject().put("type", "ping")));
            assertEquals("pong", pong.type());
            for (String type : new String[] {"publish", "register", "unregister"}) {
                JsonObject f = RawBridge.send(Protocol.PULL, TOKEN, new JsonObject()).put("type", type);
                assertEquals(403, err(b.request(f)).getInteger("failureCode"), type);
            }
            assertEquals(400, err(b.request(new JsonObject().put("type", "rpc"))).getInteger("failureCode"));
            assertEquals(400, err(b.request(new JsonObject().put("type", 7))).getInteger("failureCode"));
        }
    }

    @Test void addressesOtherThanTheAgentsAreRefused() throws Exception {
        try (RawBridge b = open()) {
            // The REST side's local submit address, Vert.x internals, nothing: none reachable.
            for (String address : new String[] {"tunefarm.local.sweep.submit", "__vertx.reply.1", "", "tunefarm.agent.register.x"}) {
                JsonObject f = RawBridge.send(address, TOKEN, new JsonObject().put("agentId", "a"));
                assertEquals(403, err(b.request(f)).getInteger("failureCode"), address);
            }
            JsonObject noAddress = RawBridge.send(Protocol.PULL, TOKEN, new JsonObject());
            noAddress.remove("address");
            assertEquals(403, err(b.request(noAddress)).getInteger("failureCode"));
        }
    }

    @Test void aMissingOrWrongTokenIsRefusedAndTheConnectionClosed() throws Exception {
        for (Object token : new Object[] {null, "", "hardening-tokem", "hardening-token ", 42}) {
            try (RawBridge b = open()) {
                JsonObject f = RawBridge.send(Protocol.REGISTER, TOKEN, new JsonObject());
                if (token == null) f.getJsonObject("headers").remove("token");
                else f.getJsonObject("headers").put("token", token);
                assertEquals(401, err(b.request(f)).getInteger("failureCode"), String.valueOf(token));
                assertInstanceOf(RawBridge.Closed.class, b.read());
            }
        }
    }

    @Test void aConnectionActsOnlyAsTheAgentItRegisteredAs() throws Exception {
        try (ScriptedAgent a = new ScriptedAgent(port, TOKEN, "bind-a", "Bind CPU"); ScriptedAgent stranger = new ScriptedAgent(port, TOKEN, "bind-b", "Bind CPU")) {
            assertEquals(403, err(stranger.send(Protocol.PULL, new Pull("bind-a"))).getInteger("failureCode"), "register first");
            a.register();
            assertEquals(403, err(a.send(Protocol.PULL, new Pull("bind-b"))).getInteger("failureCode"), "a cannot pull as b");
            assertEquals(403, err(a.send(Protocol.REGISTER, new org.tunefarm.protocol.Register("bind-b", a.profile, List.of("sleep")))).getInteger("failureCode"));
            stranger.register();
            assertEquals(403, err(stranger.send(Protocol.HEARTBEAT, new org.tunefarm.protocol.Heartbeat("bind-a", null, null))).getInteger("failureCode"));
            assertNotNull(a.ask(Protocol.PULL, new Pull("bind-a")), "a still works as itself");
        }
    }

    @Test void reportsThatAreNotHonestRecordNothing() throws Exception {
        try (ScriptedAgent holder = new ScriptedAgent(port, TOKEN, "holder", "Holder CPU");
             ScriptedAgent other = new ScriptedAgent(port, TOKEN, "other", "Holder CPU")) {
            holder.register();
            other.register();
            submit("kernel: sleep\nshapes: [{unitUs: 10}]\nspace: {a: [4, 5], b: [11], mode: [fast]}\n"
                    + "strategy: {name: exhaustive, budget: 0}\nbatchSize: 4\ndeviceClasses: [" + holder.deviceClass() + "]\n");
            Lease lease = holder.pull();
            assertNotNull(lease);
            Lease.Candidate c = lease.candidates().get(0);
            long before = recordLines();

            // A lease it does not hold, reported as itself, and as the holder.
            JsonObject stolen = holder.reportJson(lease, c).put("agentId", "other");
            ScriptedAgent.firstMeasurement(stolen).put("agentId", "other");
            assertTrue(err(other.send(Protocol.REPORT, stolen.getMap())).getString("message").contains("not held"));
            assertEquals(403, err(other.send(Protocol.REPORT, holder.reportJson(lease, c).getMap())).getInteger("failureCode"));

            // The holder itself, lying about the numbers or the candidate.
            List<Map.Entry<String, Object>> lies = List.of(
                    Map.entry("stats.medianNs", "NaN"), Map.entry("stats.minNs", -5.0), Map.entry("stats.meanNs", 1e300),
                    Map.entry("stats.stdevNs", "Infinity"), Map.entry("stats.samples", 0), Map.entry("index", 999_999L),
                    Map.entry("params.a", 9), Map.entry("before.temperatureC", 5000.0), Map.entry("startedAt", -1L),
                    Map.entry("sweepId", "other-sweep"), Map.entry("deviceClass", "fake-class"), Map.entry("status", "EXCELLENT"));
            for (var lie : lies) {
                JsonObject report = holder.reportJson(lease, c);
                JsonObject m = ScriptedAgent.firstMeasurement(report);
                String[] path = lie.getKey().split("\\.");
                JsonObject target = path.length == 2 ? m.getJsonObject(path[0]) : m;
                target.put(path[path.length - 1], lie.getValue());
                JsonObject e = err(holder.send(Protocol.REPORT, report.getMap()));
                assertEquals(400, e.getInteger("failureCode"), lie + ": " + e.encode());
            }
            assertEquals(before, recordLines(), "nothing dishonest was recorded");
            assertEquals(lease.candidates().size(), holder.measure(lease), "the honest report is recorded");
            assertEquals(before + lease.candidates().size(), recordLines());
        }
        Map<String, Long> counts = coordinator.refusals().snapshot();
        assertTrue(counts.getOrDefault("bridge/farm-refused", 0L) >= 13, counts.toString());
    }
}
