package org.tunefarm.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.agent.link.BridgeClient;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.coordinator.table.CsvRows;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.SleepSpec;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Ack;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Pull;
import org.tunefarm.protocol.Register;
import org.tunefarm.protocol.Registered;
import org.tunefarm.protocol.Report;
import org.tunefarm.protocol.Work;

/**
 * A real coordinator (embedded Hazelcast member, bridge, REST) driven over a real socket by the
 * agent's bridge client, speaking the protocol by hand: what any agent in any language would do.
 */
class BridgeProtocolTest {
    static final String TOKEN = "test-token";
    @TempDir static Path data;
    static Coordinator coordinator;
    static CoordinatorConfig config;
    static Vertx vertx;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll static void start() throws Exception {
        config = TestFarm.config(data).withTokens(TOKEN, "");
        coordinator = new Coordinator(config).start();
        vertx = Vertx.vertx();
    }

    @AfterAll static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        coordinator.close();
    }

    static <T> T await(Future<T> f) throws Exception {
        try {
            return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }

    static BridgeClient connect(String token) throws Exception {
        BridgeClient c = new BridgeClient(vertx, token);
        await(c.connect("127.0.0.1", config.bridgePort(), 5000));
        return c;
    }

    static DeviceProfile profile() {
        return new DeviceProfile("Test CPU", "testarch", 2, 2, 32, 512, 32768, 16, "Linux", "amd64", "Test", 25, 256, List.of(), Map.of());
    }

    static JsonNode postSweep(String yaml) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    @Test void wrongTokenIsRefused() throws Exception {
        BridgeClient c = connect("not-the-token");
        Exception e = assertThrows(Exception.class, () -> await(c.request(Protocol.REGISTER, new Register("intruder", profile(), List.of("sleep")), 3000)));
        assertNotNull(e.getMessage());
        await(c.close());
    }

    @Test void agentPullsMeasuresAndReportsDurably() throws Exception {
        String id = postSweep("""
                kernel: sleep
                shapes: [{unitUs: 10}]
                space: {a: [4, 5], b: [11], mode: [fast]}
                strategy: {name: exhaustive, budget: 0}
                batchSize: 4
                measure: {finalists: 0}
                """).path("id").asText();
        BridgeClient c = connect(TOKEN);
        Registered reg = Protocol.read(await(c.request(Protocol.REGISTER, new Register("a1", profile(), List.of("sleep")), 5000)).encode(), Registered.class);
        assertEquals(profile().deviceClass(), reg.deviceClass());
        Work w = Protocol.read(await(c.request(Protocol.PULL, new Pull("a1"), 5000)).encode(), Work.class);
        Lease lease = w.lease();
        assertNotNull(lease);
        assertEquals(id, lease.sweepId());
        assertEquals(3, lease.candidates().size(), "baseline plus the two points of the narrowed space");
        long now = System.currentTimeMillis();
        List<Measurement> ms = lease.candidates().stream().map(cand -> new Measurement(id, lease.key(), cand.index(), cand.params(), Status.OK,
                Stats.of(new double[] {1e6 * SleepSpec.sleepMicros(lease.key(), cand.params()) / 1000}, 1), 0.0,
                SensorReading.NONE, SensorReading.NONE, "", "a1", reg.deviceClass(), now, now, 0)).toList();
        Ack ack = Protocol.read(await(c.request(Protocol.REPORT, new Report("a1", lease.leaseId(), ms, true), 5000)).encode(), Ack.class);
        assertTrue(ack.ok());
        assertEquals(3, ack.recorded());
        assertEquals(3, Files.readAllLines(data.resolve("records.jsonl")).size());

        HttpResponse<String> t = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/table?op=sleep")).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode table = Protocol.JSON.readTree(t.body());
        assertEquals("tunefarm.table/2", table.path("schema").asText());
        // the farm's id: a UUID the coordinator keeps in its data folder
        String farmId = table.path("farmId").asText();
        assertEquals(farmId, java.util.UUID.fromString(farmId).toString());
        assertEquals(farmId, Files.readString(data.resolve(FarmId.FILE)).trim());
        assertTrue(Math.abs(table.path("generatedAt").asLong() - System.currentTimeMillis()) < 60_000, t.body());
        assertEquals(List.of(id), Protocol.JSON.convertValue(table.path("sweeps"), List.class));
        // the class described by the profile its agent registered with, ISA included
        JsonNode board = table.path("classes").path(reg.deviceClass());
        assertEquals("Test CPU", board.path("cpuModel").asText(), t.body());
        assertEquals("avx256", board.path("isa").asText());
        assertEquals(256, board.path("vectorBits").asInt());
        assertEquals(1, table.path("classes").size(), "only the classes of the entries: " + t.body());
        JsonNode e = table.path("entries").get(0);
        assertEquals("latency", e.path("objective").asText());
        assertEquals(5, e.path("params").path("a").asInt());
        Lease.Candidate baseline = lease.candidates().stream().filter(cand -> cand.index() == Lease.Candidate.BASELINE).findFirst().orElseThrow();
        assertEquals(baseline.params(), Protocol.JSON.convertValue(e.path("defaultParams"), Map.class), "the baseline record's params");
        assertTrue(e.path("speedupOverDefault").asDouble() > 1, t.body());

        // The same table as CSV: it parses back, row for row.
        HttpResponse<String> csv = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/table?op=sleep&format=csv"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, csv.statusCode(), csv.body());
        assertTrue(csv.headers().firstValue("Content-Type").orElse("").startsWith("text/csv"), csv.headers().toString());
        CsvRows rows = CsvRows.parse(csv.body());
        assertEquals(List.of("schema: tunefarm.table/2", "farmId: " + farmId), rows.comments.subList(0, 2));
        assertEquals("sweeps: " + id, rows.comments.get(3));
        assertEquals(2, rows.rows.size(), csv.body());
        assertEquals(reg.deviceClass(), rows.get(0, "deviceClass"));
        assertEquals("latency", rows.get(0, "objective"));
        assertEquals("unitUs=10", rows.get(0, "shape"));
        assertEquals("a=5;b=11;mode=fast", rows.get(0, "params"));
        assertEquals(e.path("stats").path("medianNs").asDouble(), Double.parseDouble(rows.get(0, "medianNs")));
        assertEquals("", rows.get(0, "temperatureC"), "the board reported no temperature: empty, never 0");
        assertEquals("", rows.get(0, "gflops"), "a sleep does no floating-point work");

        HttpResponse<String> xml = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/table?format=xml"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, xml.statusCode(), xml.body());
        assertEquals("format", Protocol.JSON.readTree(xml.body()).path("field").asText(), xml.body());

        // A second report of the same lease is refused: the lease is finished.
        Exception again = assertThrows(Exception.class, () -> await(c.request(Protocol.REPORT, new Report("a1", lease.leaseId(), ms, true), 5000)));
        assertTrue(again.getMessage().contains("leaseId"), again.getMessage());
        // Asking again finds the space exhausted: no lease, and the sweep is done.
        Work none = Protocol.read(await(c.request(Protocol.PULL, new Pull("a1"), 5000)).encode(), Work.class);
        assertEquals(null, none.lease());
        JsonNode status = Protocol.JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps/" + id)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        assertEquals("done", status.path("state").asText(), status.toString());
        await(c.close());
    }

    @Test void malformedSweepGetsFieldNamed400() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString("kernel: sleep\nshapes: [{unitUs: -3}]\n")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, r.statusCode());
        JsonNode n = Protocol.JSON.readTree(r.body());
        assertEquals("shapes[0].unitUs", n.path("field").asText(), r.body());
    }

    @Test void unversionedMessageIsRefused() throws Exception {
        BridgeClient c = connect(TOKEN);
        await(c.request(Protocol.REGISTER, new Register("u1", profile(), List.of("sleep")), 5000));
        Exception e = assertThrows(Exception.class, () -> await(c.request(Protocol.PULL, Map.of("agentId", "u1"), 3000)));
        assertTrue(e.getMessage().contains("v:"), e.getMessage());
        await(c.close());
    }
}
