package org.tunefarm.coordinator.replay;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.replay.RecordedSpace;
import org.tunefarm.replay.ReplaySpaces;
import org.tunefarm.replay.ReplaySpec;

/**
 * A recorded GPU space through the real farm: a coordinator and three agent processes started
 * with {@code --spaces} run a model-guided sweep of {@code replay.gemm_RTX_3090} through leases,
 * several agents and asynchronous results, and the table's best time scores the same fraction of
 * optimum as the offline {@link Replay} of the same strategy and budget, within noise.
 *
 * <p>One search's fraction at 200 evaluations is bimodal on this space (the optimum, or stuck
 * near 0.9 in about one run of four), so the sweep runs {@value #REPLICATES} replicates (shapes
 * {@code n = 1..R}, independent searches) and their mean is compared with the offline mean, the
 * tolerance being three standard errors of that difference, from the offline per-seed spread.
 * Offline runs are seeded, so their spread is fixed: enough seeds that the stuck mode is in it
 * (the first ten seeds happen to miss it, which would make the tolerance a tenth of the real one).
 */
class ReplayFarmTest {
    static final String TOKEN = "replay-farm-token";
    static final String SPACE = "gemm_RTX_3090";
    static final int BUDGET = 200;
    static final int REPLICATES = 4;
    static final int SEEDS = 30;
    static final int AGENTS = 3;
    static final int BATCH = 8;

    @TempDir static Path data;
    static ReplaySpec spec;
    static Coordinator coordinator;
    static final List<AgentProcess> agents = new ArrayList<>();
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll static void start() throws Exception {
        Path folder = SpacesFolder.find();
        assumeTrue(folder != null && Files.isRegularFile(folder.resolve(SPACE + ".json.gz")), "shared/data/spaces/" + SPACE + ".json.gz is not beside this checkout");
        // A folder with only the space swept: agents read every recording of their folder at start.
        Path spaces = Files.createDirectories(data.resolve("spaces"));
        Files.copy(folder.resolve(SPACE + ".json.gz"), spaces.resolve(SPACE + ".json.gz"));
        List<String> args = List.of("--spaces", spaces.toString());
        CoordinatorConfig config = CoordinatorConfig.defaults().withDataDir(data).withPorts(FreePort.pick(), FreePort.pick()).withTokens(TOKEN, "");
        List<String> bridge = List.of("127.0.0.1:" + config.bridgePort());
        for (int i = 1; i <= AGENTS; i++) agents.add(AgentProcess.start("replay-" + i, bridge, TOKEN, data.resolve("replay-" + i + ".log"), args));
        // What `coordinator --spaces` does: register, and read the recording before any request needs it.
        spec = ReplaySpaces.register(spaces).get(0);
        spec.recorded();
        coordinator = new Coordinator(config).start();
    }

    @AfterAll static void stop() throws Exception {
        for (AgentProcess a : agents) a.close();
        if (coordinator != null) coordinator.close();
    }

    @Test void modelGuidedSweepThroughThreeAgentsMatchesTheOfflineReplay() throws Exception {
        long tStart = System.nanoTime();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> {
            agents.forEach(a -> assertTrue(a.alive(), "agent " + a.id() + " died; see " + a.log()));
            return get("/api/agents").size() == AGENTS;
        });
        String shapes = IntStream.rangeClosed(1, REPLICATES).mapToObj(n -> "{n: " + n + "}").toList().toString();
        long t0 = System.nanoTime();
        double readySeconds = (t0 - tStart) / 1e9;
        String id = submit("""
                name: replay-farm
                kernel: %s
                shapes: %s
                strategy: {name: model, budget: %d}
                measure: {minSamples: 1, minSampleMs: 0.01, maxWarmupMs: 0, timeoutMs: 10000, finalists: 0}
                batchSize: %d
                """.formatted(spec.op(), shapes, BUDGET, BATCH));
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
            agents.forEach(a -> assertTrue(a.alive(), "agent " + a.id() + " died; see " + a.log()));
            return "done".equals(get("/api/sweeps/" + id).path("state").asText());
        });
        double farmSeconds = (System.nanoTime() - t0) / 1e9;

        // Every answer came from the recording, each point once, from several agents.
        Map<String, Set<Long>> pointsByKey = new HashMap<>();
        Set<String> agentIds = new HashSet<>();
        int records = 0;
        for (String line : Files.readAllLines(data.resolve("records.jsonl"))) {
            Measurement m = Protocol.JSON.readValue(line, Measurement.class);
            if (!m.sweepId().equals(id)) continue;
            records++;
            agentIds.add(m.agentId());
            assertTrue(m.detail().startsWith("replayed from " + SPACE + ".json.gz"), line);
            assertTrue(pointsByKey.computeIfAbsent(m.key().id(), k -> new HashSet<>()).add(m.index()), "recorded twice: " + line);
        }
        assertEquals(REPLICATES, pointsByKey.size());
        for (Set<Long> points : pointsByKey.values()) assertTrue(points.size() >= BUDGET - 1 && points.size() <= BUDGET + 1, "budget kept: " + points.size());
        assertTrue(agentIds.size() >= 2, "several agents took leases: " + agentIds);

        // The farm's score: each replicate's table entry against the recorded optimum.
        RecordedSpace recorded = spec.recorded();
        double[] farm = new double[REPLICATES];
        for (int n = 1; n <= REPLICATES; n++) {
            JsonNode entry = get("/api/table?op=" + spec.op() + "&shape=" + n).path("entries").get(0);
            farm[n - 1] = recorded.optimum() / (entry.path("stats").path("medianNs").asDouble() / 1e6);
        }

        // Offline: the same strategy and budget, as many proposals out at once as the farm can have.
        long t1 = System.nanoTime();
        Replay offline = new Replay(recorded, BUDGET, SEEDS, AGENTS * BATCH);
        double[] seeds = IntStream.range(0, SEEDS).parallel().mapToDouble(s -> offline.curve("model", Map.of(), s)[BUDGET]).toArray();
        double offlineSeconds = (System.nanoTime() - t1) / 1e9;

        double farmMean = mean(farm), offlineMean = mean(seeds), sd = sd(seeds);
        double tolerance = 3 * sd * Math.sqrt(1.0 / REPLICATES + 1.0 / SEEDS);
        String summary = String.format(Locale.ROOT,
                "farm %s mean %.4f (%d records from %d agents, %.1f s after %.1f s for agents to register); offline %d seeds mean %.4f sd %.4f min %.4f (%.1f s); threshold %.4f; random search expects %.4f",
                fmt(farm), farmMean, records, agentIds.size(), farmSeconds, readySeconds, SEEDS, offlineMean, sd,
                java.util.Arrays.stream(seeds).min().orElse(0), offlineSeconds, offlineMean - tolerance,
                new RandomExpectation(recorded.okTimes(), recorded.size()).meanFraction(BUDGET));
        System.out.println("replay farm: " + summary);
        Files.writeString(data.resolve("summary.txt"), summary);
        assertTrue(farmMean >= offlineMean - tolerance, summary);
    }

    static double mean(double[] xs) {
        return java.util.Arrays.stream(xs).average().orElse(0);
    }

    /** Sample standard deviation. */
    static double sd(double[] xs) {
        double m = mean(xs), s = 0;
        for (double x : xs) s += (x - m) * (x - m);
        return xs.length > 1 ? Math.sqrt(s / (xs.length - 1)) : 0;
    }

    static String fmt(double[] xs) {
        return java.util.Arrays.stream(xs).mapToObj(x -> String.format(Locale.ROOT, "%.3f", x)).toList().toString();
    }

    static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    static String submit(String yaml) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }
}
