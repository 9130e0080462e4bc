package org.tunefarm.coordinator.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.coordinator.replay.SpacesFolder;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.replay.KernelTunerCache;
import org.tunefarm.replay.RecordedSpace;

/**
 * {@code tunefarm table import --kernel-tuner FILE --device-class NAME} against a real coordinator:
 * a real Kernel Tuner cache (a cut of benchmark_hub's pnpoly on an RTX 3090) becomes records in
 * the record log, a second import stores nothing, the table holds the class's best, the audit log
 * says who did it, and bad input is refused naming the field with nothing stored.
 */
class RecordImportFarmTest {
    static final String ADMIN = "import-admin";
    static final Path CUT = Path.of("src/test/resources/kernel-tuner/pnpoly_RTX_3090-cut.json");
    @TempDir static Path data;
    static Coordinator coordinator;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll static void start() throws Exception {
        coordinator = new Coordinator(TestFarm.config(data.resolve("farm")).withTokens("import-token", ADMIN)).start();
    }

    @AfterAll static void stop() throws Exception {
        if (coordinator != null) coordinator.close();
    }

    static String api() {
        return "http://127.0.0.1:" + coordinator.httpPort();
    }

    static CliRun importFile(Path file, String deviceClass) {
        CliRun r = CliRun.of("table", "import", "--kernel-tuner", file.toString(), "--device-class", deviceClass, "--api", api(), "--admin-token", ADMIN, "--json");
        assertEquals(0, r.code(), r.toString());
        return r;
    }

    /** The stored records of one device class, or all of them (null). */
    static List<Measurement> records(String deviceClass) throws Exception {
        List<Measurement> out = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(data.resolve("farm/records.jsonl"))) {
            Measurement m = Protocol.JSON.readValue(line, Measurement.class);
            if (deviceClass == null || m.deviceClass().equals(deviceClass)) out.add(m);
        }
        return out;
    }

    static HttpResponse<String> post(String query, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api() + "/api/records/import" + query)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) b.header("Authorization", "Bearer " + token);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test void aRealCacheBecomesRecordsOnceAndTheTableHoldsItsBest() throws Exception {
        JsonNode first = Protocol.JSON.readTree(importFile(CUT, "rtx3090").out());
        System.out.println("first import: " + first);
        String sweep = first.path("sweepId").asText();
        assertEquals(68, first.path("records").asInt(), first.toString());
        assertEquals(68, first.path("imported").asInt());
        assertEquals(0, first.path("duplicates").asInt());
        assertEquals(0, first.path("refused").asInt());
        assertEquals("cn_pnpoly[x=20000000]:unknown", first.path("kernel").asText());
        List<Measurement> stored = records("rtx3090");
        assertTrue(stored.stream().allMatch(m -> m.sweepId().equals(sweep)));
        assertEquals(60, stored.stream().filter(m -> m.status() == Status.OK).count());
        assertEquals(8, stored.stream().filter(m -> m.status() == Status.CRASH).count(), "RuntimeFailedConfig");

        JsonNode again = Protocol.JSON.readTree(importFile(CUT, "rtx3090").out());
        assertEquals(sweep, again.path("sweepId").asText(), "the same file, the same sweep");
        assertEquals(0, again.path("imported").asInt(), again.toString());
        assertEquals(68, again.path("duplicates").asInt());
        assertEquals(68, records("rtx3090").size(), "nothing stored twice");

        // The table's winner is the optimum the repository's own Kernel Tuner reader finds in the file.
        RecordedSpace space = KernelTunerCache.read(CUT);
        Map<String, Object> best = space.space().config(space.optimumIndex());
        JsonNode entries = Protocol.JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(api() + "/api/table?deviceClass=rtx3090")).build(),
                HttpResponse.BodyHandlers.ofString()).body()).path("entries");
        assertEquals(1, entries.size(), entries.toString());
        JsonNode e = entries.get(0);
        System.out.println("table entry: " + e);
        assertEquals("cn_pnpoly", e.path("kernel").path("op").asText());
        assertEquals(space.optimum() * 1e6, e.path("stats").path("medianNs").asDouble(), 1e-3);
        best.forEach((k, v) -> assertEquals(v, e.path("params").path(k).asInt(), k));
        assertEquals(KernelTunerImport.AGENT, e.path("agentId").asText());

        List<JsonNode> audit = Files.readAllLines(data.resolve("farm/audit.jsonl")).stream().map(l -> {
            try {
                return Protocol.JSON.readTree(l);
            } catch (java.io.IOException x) {
                throw new AssertionError(x);
            }
        }).filter(a -> a.path("action").asText().equals("records.import") && a.path("details").path("deviceClass").asText().equals("rtx3090")).toList();
        assertEquals(2, audit.size());
        assertEquals("admin-token", audit.get(0).path("credential").asText());
        assertEquals(68, audit.get(0).path("details").path("imported").asInt());
        assertEquals(sweep, audit.get(1).path("details").path("sweepId").asText());
    }

    @Test void aGzippedCacheImportsAsIs() throws Exception {
        Path gz = data.resolve("cut.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readAllBytes(CUT));
        }
        CliRun r = CliRun.of("table", "import", "--kernel-tuner", gz.toString(), "--device-class", "rtx3090-gz", "--api", api(), "--admin-token", ADMIN);
        assertEquals(0, r.code(), r.toString());
        System.out.print("import: " + r.out());
        assertTrue(r.out().matches("(?s)\\Q" + gz + "\\E: 68 configurations of cn_pnpoly\\[x=20000000\\]:unknown on rtx3090-gz as sweep kt-[0-9a-f]{12}: "
                + "68 imported, 0 already stored, 0 refused\n"), r.out());
    }

    @Test void theWholeRecordedSpaceImports() throws Exception {
        Path spaces = SpacesFolder.find();
        Assumptions.assumeTrue(spaces != null && Files.isRegularFile(spaces.resolve("pnpoly_RTX_3090.json.gz")),
                "shared/data/spaces/pnpoly_RTX_3090.json.gz is not beside the repository");
        JsonNode a = Protocol.JSON.readTree(importFile(spaces.resolve("pnpoly_RTX_3090.json.gz"), "rtx3090-whole").out());
        assertEquals(4092, a.path("imported").asInt(), a.toString());
        List<Measurement> stored = records("rtx3090-whole");
        assertEquals(3774, stored.stream().filter(m -> m.status() == Status.OK).count());
        assertEquals(318, stored.stream().filter(m -> m.status() == Status.CRASH).count());
    }

    @Test void badInputIsRefusedNamingTheFieldAndNothingIsStored() throws Exception {
        String cut = Files.readString(CUT);
        int before = records(null).size();
        Object[][] cases = {
                {"?deviceClass=x", "not json", "body"},
                {"?deviceClass=x", "{\"kernel_name\": \"k\", \"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}}", "cache"},
                {"?deviceClass=x", cut.replace("\"RuntimeFailedConfig\"", "\"ThermalThrottledConfig\""), "cache[\"0,544,20,1\"].time"},
                {"?deviceClass=", cut, "deviceClass"},
                {"", cut, "deviceClass"},
                {"?deviceClass=" + "c".repeat(129), cut, "deviceClass"},
                {"?deviceClass=" + URLEncoder.encode("a/b", StandardCharsets.UTF_8), cut, "deviceClass"},
                {"?format=csv&deviceClass=x", cut, "format"},
                {"?deviceClass=x", cut.replace("\"cn_pnpoly\"", "\"gemm\""), "kernel_name"}};
        for (Object[] c : cases) {
            HttpResponse<String> r = post((String) c[0], (String) c[1], ADMIN);
            assertEquals(400, r.statusCode(), c[0] + " " + r.body());
            assertEquals(c[2], Protocol.JSON.readTree(r.body()).path("field").asText(), r.body());
        }
        assertEquals(401, post("?deviceClass=x", cut, null).statusCode(), "a write needs the admin token");
        HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create(api() + "/api/records/import")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, get.statusCode());
        assertEquals(before, records(null).size(), "nothing stored");
        CliRun noClass = CliRun.of("table", "import", "--kernel-tuner", CUT.toString(), "--api", api(), "--admin-token", ADMIN);
        assertEquals(2, noClass.code());
        assertTrue(noClass.err().contains("--device-class: required for import"), noClass.toString());
    }
}
