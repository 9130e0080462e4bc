package org.tunefarm.coordinator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;

/**
 * The shipped table's header facts outlive the coordinator that made them: every coordinator of a
 * cluster reports one farm id, and the classes' profiles stay known after the leader goes and after
 * the whole farm restarts with no agent online (from the sweep log, not from a registration).
 */
class TableDocumentFarmTest {
    static final String TOKEN = "table-doc-token";
    static final HttpClient http = HttpClient.newHttpClient();
    @TempDir Path data;
    Coordinator a;
    Coordinator b;

    @AfterEach void stop() throws Exception {
        if (a != null) a.close();
        if (b != null) b.close();
    }

    JsonNode get(Coordinator c, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.httpPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    String submit(Coordinator c, String yaml) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }

    static String farmFile(Coordinator c) throws Exception {
        return Files.readString(c.config().dataDir().resolve(FarmId.FILE)).trim();
    }

    @Test void farmIdAndClassProfilesOutliveTheLeaderAndARestart() throws Exception {
        String cluster = "table-doc-" + UUID.randomUUID();
        int[] members = {FreePort.pick(), FreePort.pick()};
        a = new Coordinator(RestartStateTest.member(data.resolve("a"), cluster, members, 0).withTokens(TOKEN, "")).start();
        b = new Coordinator(RestartStateTest.member(data.resolve("b"), cluster, members, 1).withTokens(TOKEN, "")).start();
        await().atMost(Duration.ofSeconds(60)).until(() -> a.leading() && !b.leading());

        // The second coordinator joined the first's cluster: it reports, and keeps, the first's id.
        String farmId = get(a, "/api/table").path("farmId").asText();
        assertEquals(farmId, UUID.fromString(farmId).toString());
        assertEquals(farmId, get(b, "/api/table").path("farmId").asText());
        assertEquals(farmId, farmFile(a));
        assertEquals(farmId, farmFile(b));

        String sweep = submit(a, """
                kernel: sleep
                shapes: [{unitUs: 10}]
                space: {a: [4, 5], b: [11], mode: [fast]}
                strategy: {name: exhaustive, budget: 0}
                measure: {finalists: 0}
                """);
        String deviceClass;
        Map<?, ?> baselineParams = null;
        try (ScriptedAgent agent = new ScriptedAgent(a.bridgePort(), TOKEN, "board-1", "Table CPU")) {
            deviceClass = agent.deviceClass();
            agent.register();
            for (Lease lease = agent.pull(); lease != null; lease = agent.pull()) {
                for (Lease.Candidate c : lease.candidates()) if (c.index() == Lease.Candidate.BASELINE) baselineParams = c.params();
                agent.measure(lease);
            }
        }
        assertNotNull(baselineParams, "the baseline was lent");
        await().atMost(Duration.ofSeconds(30)).until(() -> "done".equals(get(a, "/api/sweeps/" + sweep).path("state").asText()));
        JsonNode before = get(b, "/api/table?op=sleep");
        assertDocument(before, farmId, sweep, deviceClass, baselineParams);

        // The leader goes: B leads, with the same id and the class still described.
        a.close();
        a = null;
        await().atMost(Duration.ofSeconds(60)).until(() -> b.leading());
        assertDocument(get(b, "/api/table?op=sleep"), farmId, sweep, deviceClass, baselineParams);

        // The whole farm restarts from B's folder alone, in a fresh cluster whose maps are empty and
        // with no agent online: the id comes from the file, the class's profile from the sweep log.
        CoordinatorConfig bConfig = b.config();
        b.close();
        b = new Coordinator(bConfig.withClusterName("table-doc-restart-" + UUID.randomUUID())).start();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> get(b, "/api/table?op=sleep").path("entries").size() == 1);
        JsonNode after = get(b, "/api/table?op=sleep");
        assertDocument(after, farmId, sweep, deviceClass, baselineParams);
        assertEquals(before.path("classes"), after.path("classes"));
        assertEquals(before.path("entries"), after.path("entries"), "the same table, rebuilt from the records");
        assertEquals(0, get(b, "/api/agents").size(), "no agent told it the profile");
    }

    static void assertDocument(JsonNode t, String farmId, String sweep, String deviceClass, Map<?, ?> baselineParams) {
        assertEquals("tunefarm.table/2", t.path("schema").asText());
        assertEquals(farmId, t.path("farmId").asText());
        assertEquals(sweep, t.path("sweeps").get(0).asText(), t.toString());
        assertEquals(1, t.path("sweeps").size());
        JsonNode profile = t.path("classes").path(deviceClass);
        assertEquals("Table CPU", profile.path("cpuModel").asText(), t.toString());
        assertEquals("avx256", profile.path("isa").asText());
        assertEquals(2, profile.path("physicalCores").asInt());
        JsonNode e = t.path("entries").get(0);
        assertEquals(deviceClass, e.path("deviceClass").asText());
        assertEquals("latency", e.path("objective").asText());
        assertEquals(baselineParams, Protocol.JSON.convertValue(e.path("defaultParams"), Map.class));
        assertTrue(e.path("speedupOverDefault").asDouble() > 1, t.toString());
    }
}
