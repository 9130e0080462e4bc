package org.tunefarm.coordinator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.exchange.CLookupProgram;
import org.tunefarm.coordinator.exchange.CliRun;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;

/**
 * A command kernel through the real farm: a coordinator and one agent process whose config file
 * declares a tiled C sgemm; gcc compiles each candidate with -D parameters, the program checks its
 * answer and prints its times, and the table gets a GFLOP/s entry for it, which a C program then
 * looks up in the table's C header.
 */
class CommandKernelFarmTest {
    static final String TOKEN = "command-token";
    @TempDir static Path data;
    static Coordinator coordinator;
    static AgentProcess agent;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll static void start() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/gcc")) || Files.isExecutable(Path.of("/bin/gcc")), "gcc is absent");
        Path kernelDir = Files.createDirectories(data.resolve("kernels/c_sgemm/build"));
        Files.copy(Path.of("../configs/kernels/c_sgemm/sgemm.c"), kernelDir.resolve("../sgemm.c"));
        Path config = data.resolve("agent.yaml");
        Files.writeString(config, """
                labels: {site: it}
                commandKernels:
                  - name: c_sgemm
                    dimensions: [M, N, K]
                    flops: "2*M*N*K"
                    parameters: {TM: [16, 32, 64], TN: [16, 32, 64], TK: [16, 32, 64], UNROLL: [1, 2, 4]}
                    constraints: ["TM * TK <= 4096"]
                    default: {TM: 16, TN: 16, TK: 16, UNROLL: 1}
                    workdir: kernels/c_sgemm
                    build: [gcc, -O3, -march=native, "-DTM={TM}", "-DTN={TN}", "-DTK={TK}", "-DUNROLL={UNROLL}", -o, "build/sgemm_{TM}_{TN}_{TK}_{UNROLL}", sgemm.c]
                    run: ["build/sgemm_{TM}_{TN}_{TK}_{UNROLL}", "{M}", "{N}", "{K}", "{seed}", "{samples}"]
                    output: json
                    buildTimeoutMs: 60000
                    runTimeoutMs: 30000
                """);
        // A cluster of its own: other coordinators on this machine (other test runs) must not share its maps.
        Path hazelcast = data.resolve("hazelcast.yaml");
        try (var in = Coordinator.class.getResourceAsStream("/hazelcast-default.yaml")) {
            Files.writeString(hazelcast, new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .replace("cluster-name: tunefarm", "cluster-name: tunefarm-command-it-" + java.util.UUID.randomUUID()));
        }
        CoordinatorConfig cc = CoordinatorConfig.defaults().withDataDir(data).withPorts(FreePort.pick(), FreePort.pick()).withTokens(TOKEN, "")
                .withHazelcast(hazelcast);
        coordinator = new Coordinator(cc).start();
        agent = AgentProcess.start("c-board", List.of("127.0.0.1:" + cc.bridgePort()), TOKEN, data.resolve("agent.log"),
                List.of("--config", config.toString()));
    }

    @AfterAll static void stop() throws Exception {
        if (agent != null) agent.close();
        if (coordinator != null) coordinator.close();
    }

    static HttpResponse<String> post(String yaml) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    static String sweepId;

    /** The C sgemm sweep, run once for the tests that read its records and its table. */
    static synchronized String tunedSweep() throws Exception {
        if (sweepId != null) return sweepId;
        await().atMost(Duration.ofSeconds(60)).until(() -> get("/api/agents").size() == 1);
        HttpResponse<String> r = post("""
                name: c-sgemm-it
                kernel: c_sgemm
                shapes: [{M: 128, N: 128, K: 128}]
                strategy: {name: random, budget: 6, seed: 5}
                measure: {minSamples: 5, timeoutMs: 30000, finalists: 0}
                batchSize: 3
                """);
        assertEquals(201, r.statusCode(), r.body());
        String id = Protocol.JSON.readTree(r.body()).path("id").asText();
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertTrue(agent.alive(), "the agent died; see " + agent.log());
            return "done".equals(get("/api/sweeps/" + id).path("state").asText());
        });
        sweepId = id;
        return id;
    }

    @Test void aCSgemmSweepRunsThroughTheFarmAndTablesGflops() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> get("/api/agents").size() == 1);
        assertEquals("c_sgemm", get("/api/agents").get(0).path("commandKernels").get(0).path("name").asText(), "the agent advertises its kernel");

        HttpResponse<String> unknown = post("kernel: c_dgemm\nshapes: [{M: 8}]\n");
        assertEquals(400, unknown.statusCode(), unknown.body());
        assertEquals("kernel", Protocol.JSON.readTree(unknown.body()).path("field").asText());

        String id = tunedSweep();
        int measured = 0;
        for (String line : Files.readAllLines(data.resolve("records.jsonl"))) {
            Measurement m = Protocol.JSON.readValue(line, Measurement.class);
            if (!m.sweepId().equals(id)) continue;
            measured++;
            assertEquals(Status.OK, m.status(), line);
            assertEquals(5, m.stats().samples(), "one sample per repetition the program timed: " + line);
        }
        // The default configuration is a point of this space: measured as the baseline, it is one of the six trials.
        assertEquals(6, measured, "a budget of six trials, the baseline among them");
        JsonNode entry = get("/api/table?op=c_sgemm&shape=128x128x128").path("entries").get(0);
        System.out.println("c_sgemm table entry: " + entry);
        assertTrue(entry.path("gflops").asDouble() > 0, entry.toString());
        assertFalse(entry.path("speedupOverDefault").isNull(), entry.toString());
        assertEquals(6, Files.list(data.resolve("kernels/c_sgemm/build")).count(), "one binary per configuration");
    }

    /**
     * The table of this real command-kernel sweep, exported as a C header by the CLI against the
     * farm's REST, compiled with cc -std=c99 -Wall -Werror and looked up in by a C program: the
     * tuned shape (exact), a near one (nearest), a far one (the family default) and a CPU model
     * the table does not know (none).
     */
    @Test void theTableExportsAsACHeaderThatACProgramLooksUpIn() throws Exception {
        Assumptions.assumeTrue(CLookupProgram.ccPresent(), "no cc on the PATH");
        tunedSweep();
        String api = "http://127.0.0.1:" + coordinator.httpPort();
        Path header = data.resolve("c-header/tunefarm_table.h");
        Files.createDirectories(header.getParent());
        CliRun export = CliRun.of("table", "export", "--format", "c-header", "--op", "c_sgemm", "--out", header.toString(), "--api", api);
        assertEquals(0, export.code(), export.toString());
        String text = Files.readString(header);
        System.out.println("c-header: the first lines of " + header.getFileName() + ":");
        text.lines().limit(28).forEach(l -> System.out.println("c-header: " + l));

        JsonNode doc = get("/api/table?op=c_sgemm");
        JsonNode entry = doc.path("entries").get(0);
        String deviceClass = entry.path("deviceClass").asText();
        String cpuModel = doc.path("classes").path(deviceClass).path("cpuModel").asText();
        assertFalse(cpuModel.isBlank(), doc.toString());
        assertTrue(text.contains("#define TUNEFARM_FARM_ID \"" + doc.path("farmId").asText() + "\""), "the farm id");
        assertTrue(text.contains("#define TUNEFARM_SWEEPS \"" + sweepId + "\""), "the sweep");

        Path binary = CLookupProgram.build(header.getParent(), text);
        // The model as a program might read it: other case, stray white space.
        List<String> lines = CLookupProgram.run(binary, "  " + cpuModel.toUpperCase(java.util.Locale.ROOT) + "\t", "c_sgemm", "fp32",
                "M=128,N=128,K=128", "M=128,N=128,K=256", "M=1024,N=1024,K=1024");
        List<String> unknown = CLookupProgram.run(binary, "No Such CPU 9000", "c_sgemm", "fp32", "M=128,N=128,K=128");
        System.out.println("c-header: cc -std=c99 -Wall -Werror -o lookup_test lookup_test.c -lm, then ./lookup_test '" + cpuModel + "' c_sgemm fp32 ...:");
        lines.forEach(l -> System.out.println("c-header: " + l));
        unknown.forEach(l -> System.out.println("c-header: " + l + "   (CPU model 'No Such CPU 9000')"));

        String id = "c_sgemm[K=128,M=128,N=128]:fp32";
        assertEquals(3, lines.size(), lines.toString());
        assertEquals(params(entry.path("params")), params(lines.get(0), "M=128,N=128,K=128: exact " + id));
        assertEquals(params(entry.path("params")), params(lines.get(1), "M=128,N=128,K=256: nearest " + id));
        assertEquals(Map.of("TM", 16L, "TN", 16L, "TK", 16L, "UNROLL", 1L), params(lines.get(2), "M=1024,N=1024,K=1024: default " + id),
                "the family default the agent declared");
        assertEquals(params(entry.path("defaultParams")), params(lines.get(2), "M=1024,N=1024,K=1024: default " + id));
        assertEquals(List.of("M=128,N=128,K=128: none"), unknown);
    }

    /** The same table through the other export formats: JSON as served, the farm's CSV, and a Kernel Tuner cache its reader reads back. */
    @Test void theTableExportsAsJsonCsvAndAKernelTunerCache() throws Exception {
        tunedSweep();
        String api = "http://127.0.0.1:" + coordinator.httpPort();
        CliRun json = CliRun.of("table", "export", "--op", "c_sgemm", "--api", api);
        assertEquals(0, json.code(), json.toString());
        JsonNode doc = Protocol.JSON.readTree(json.out());
        assertEquals("tunefarm.table/2", doc.path("schema").asText());
        JsonNode entry = doc.path("entries").get(0);

        CliRun csv = CliRun.of("table", "export", "--format", "csv", "--op", "c_sgemm", "--api", api);
        assertEquals(0, csv.code(), csv.toString());
        List<String> rows = csv.out().lines().filter(l -> !l.startsWith("#")).toList();
        assertTrue(csv.out().startsWith("# schema: tunefarm.table/2"), csv.out());
        assertEquals(String.join(",", org.tunefarm.coordinator.table.TableCsv.COLUMNS), rows.get(0));
        assertEquals(2, rows.size(), "the header and the one entry: " + csv.out());

        Path cache = data.resolve("c_sgemm-kernel-tuner.json");
        CliRun kt = CliRun.of("table", "export", "--format", "kernel-tuner", "--op", "c_sgemm", "--out", cache.toString(), "--api", api);
        assertEquals(0, kt.code(), kt.toString());
        org.tunefarm.replay.RecordedSpace space = org.tunefarm.replay.KernelTunerCache.read(cache);
        assertEquals("c_sgemm", space.kernel());
        assertEquals(doc.path("classes").path(entry.path("deviceClass").asText()).path("cpuModel").asText(), space.device());
        assertEquals(entry.path("stats").path("medianNs").asDouble() / 1e6, space.optimum(), 1e-12);
        Map<String, Object> best = space.space().config(space.optimumIndex());
        entry.path("params").fields().forEachRemaining(p -> assertEquals(p.getValue().asInt(), best.get(p.getKey()), p.getKey()));

        CliRun wrong = CliRun.of("table", "export", "--format", "xlsx", "--api", api);
        assertEquals(2, wrong.code());
        assertTrue(wrong.err().contains("--format: unknown format 'xlsx' (expected one of json, csv, c-header, kernel-tuner)"), wrong.toString());
    }

    private static Map<String, Long> params(JsonNode p) {
        Map<String, Long> out = new java.util.TreeMap<>();
        p.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asLong()));
        return out;
    }

    /** The NAME=VALUE pairs after the expected prefix of a lookup_test line. */
    private static Map<String, Long> params(String line, String prefix) {
        assertTrue(line.startsWith(prefix + " "), "expected '" + prefix + " ...', got '" + line + "'");
        Map<String, Long> out = new java.util.TreeMap<>();
        for (String kv : line.substring(prefix.length() + 1).split(" ")) {
            String[] parts = kv.split("=", 2);
            out.put(parts[0], Long.parseLong(parts[1]));
        }
        return out;
    }
}
