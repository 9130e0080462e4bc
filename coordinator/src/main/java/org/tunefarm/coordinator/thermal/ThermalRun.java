package org.tunefarm.coordinator.thermal;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.CoordinatorProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.coordinator.local.HeatDeviceProcess;
import org.tunefarm.kernel.HeatModel;
import org.tunefarm.kernel.HeatSimSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.space.SearchSpace;

/**
 * {@code tunefarm bench thermal}: a real coordinator process and a real agent process, whose
 * sensors read the fake sysfs of a simulated heating device (its own process, {@link HeatModel#BENCH}),
 * tune the {@code heatsim} kernel twice: a latency sweep (the burst winner, decided between its two
 * best measured interleaved, as a tuning sweep decides, so that a stall of the host during one
 * candidate's samples does not pick it) and a sustained sweep (its finalists each run without
 * pause). The answers are checked against the model's own ranking of steady states
 * ({@link ThermalOutcome}).
 */
public final class ThermalRun {

    /**
     * @param sustainedSeconds how long each finalist of the sustained sweep runs
     * @param finalists        how many of the latency search's best the sustained sweep runs sustained
     */
    public record Settings(double sustainedSeconds, int finalists, Path dir) {
        /** A full run: 10 s (four time constants) for each of four finalists, a few minutes in all. */
        public static Settings full(Path dir) {
            return new Settings(10, 4, dir);
        }

        /** A smoke run: 5 s for each of three finalists. */
        public static Settings quick(Path dir) {
            return new Settings(5, 3, dir);
        }
    }

    static final KernelKey KEY = new KernelKey("heatsim", Map.of("unitUs", 8000), "fp32");
    /**
     * The candidates that heat: measured back to back in one lease, they take the device past its
     * trip point, so throttled measurements are seen and re-taken (width 1 only idles; the model's
     * answers are over the whole space all the same).
     */
    private static final String SPACE = "{width: [2, 4, 8]}";
    /**
     * A measurement of the widest heats the device some 12 °C, well short of its trip point from
     * the start temperature; seed 25 runs the lease in an order (the agent's seeded shuffle) that
     * measures width 4, then the two widest back to back, so the last of them runs some 4 °C past it.
     */
    private static final String MEASURE = "{minSamples: 30, minSampleMs: 10, maxWarmupMs: 50, timeoutMs: 20000, seed: 25, cooldownTimeoutMs: 60000, finalists: %d}";

    /** The burst winners of the model (rows and tiles at width 8) are 1.2x apart: the two best re-measured interleaved. */
    private static final int LATENCY_FINALISTS = 2;

    private final Settings s;
    private final PrintStream log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String token = "thermal-" + UUID.randomUUID();

    public ThermalRun(Settings settings, PrintStream log) {
        this.s = settings;
        this.log = log;
    }

    public ThermalOutcome run() throws Exception {
        long started = System.currentTimeMillis();
        Path deviceDir = s.dir().resolve("device");
        try (HeatDeviceProcess device = HeatDeviceProcess.start(deviceDir, 1, s.dir().resolve("device.log"));
             CoordinatorProcess coordinator = CoordinatorProcess.start(s.dir().resolve("coordinator"), FreePort.pick(), FreePort.pick(), token,
                     "thermal-" + UUID.randomUUID(), s.dir().resolve("coordinator.log"))) {
            awaitHealthy(coordinator);
            Path config = Files.writeString(s.dir().resolve("agent.yaml"), """
                    sensors:
                      sysfsRoot: %s
                    thermal:
                      marginC: 5
                      cooldownTimeoutMs: 60000
                      maxThrottleRetakes: 2
                    """.formatted(HeatDeviceProcess.sysfsRoot(deviceDir).toAbsolutePath()));
            try (AgentProcess agent = AgentProcess.start(List.of(), "thermal-1", List.of("127.0.0.1:" + coordinator.bridgePort()), token,
                    s.dir().resolve("agent.log"), List.of("--config", config.toString()),
                    Map.of(HeatDeviceProcess.DIR_ENV, deviceDir.toAbsolutePath().toString()))) {
                awaitAgent(coordinator, agent);
                String latency = sweep(coordinator, agent, """
                        name: thermal-latency
                        kernel: heatsim
                        shapes: [{unitUs: 8000}]
                        space: %s
                        strategy: {name: exhaustive, budget: 0}
                        measure: %s
                        batchSize: 8
                        """.formatted(SPACE, MEASURE.formatted(LATENCY_FINALISTS)));
                String sustained = sweep(coordinator, agent, """
                        name: thermal-sustained
                        kernel: heatsim
                        objective: sustained
                        sustainedSeconds: %s
                        shapes: [{unitUs: 8000}]
                        space: %s
                        strategy: {name: exhaustive, budget: 0}
                        measure: %s
                        batchSize: 8
                        """.formatted(s.sustainedSeconds(), SPACE, MEASURE.formatted(s.finalists())));
                JsonNode table = coordinator.get("/api/table?op=heatsim", Duration.ofSeconds(10));
                // Kept beside the logs: the entries behind the JSON line, one per objective.
                Files.writeString(s.dir().resolve("table.json"), Protocol.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(table) + "\n");
                List<Measurement> records = records(coordinator.data().resolve("records.jsonl"));
                long trace;
                try (var lines = Files.lines(device.trace())) {
                    trace = lines.count();
                }
                return ThermalOutcome.of(latency, sustained, table, records, HeatModel.BENCH, KEY, space(), trace,
                        (System.currentTimeMillis() - started) / 1000);
            }
        }
    }

    static List<Map<String, Object>> space() {
        SearchSpace space = new HeatSimSpec().space(KEY, 1);
        return LongStream.range(0, space.size()).mapToObj(space::config).toList();
    }

    private String sweep(CoordinatorProcess c, AgentProcess agent, String spec) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(c.base() + "/api/sweeps")).POST(HttpRequest.BodyPublishers.ofString(spec)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) throw new IllegalStateException("sweep refused: " + r.body());
        String id = Protocol.JSON.readTree(r.body()).path("id").asText();
        log.println("thermal: sweep " + id + " (" + spec.lines().findFirst().orElse("") + ") started");
        long end = System.currentTimeMillis() + Duration.ofMinutes(10).toMillis();
        String last = "";
        while (System.currentTimeMillis() < end) {
            if (!agent.alive()) throw new IllegalStateException("the agent exited; see " + agent.log());
            JsonNode st = c.get("/api/sweeps/" + id, Duration.ofSeconds(10));
            int measured = 0;
            for (JsonNode p : st.path("searches")) measured += p.path("measured").asInt();
            String line = st.path("state").asText() + ", " + measured + " measured";
            if (!line.equals(last)) log.println("thermal: sweep " + id + " " + line);
            last = line;
            if ("done".equals(st.path("state").asText())) return id;
            Thread.sleep(1000);
        }
        throw new IllegalStateException("sweep " + id + " did not finish within 10 minutes");
    }

    private void awaitHealthy(CoordinatorProcess c) throws Exception {
        for (int i = 0; i < 360; i++) {
            if (!c.alive()) throw new IllegalStateException("the coordinator exited; see " + s.dir());
            try {
                c.get("/api/health", Duration.ofSeconds(10));
                return;
            } catch (IOException e) {
                Thread.sleep(250);
            }
        }
        throw new IllegalStateException("the coordinator did not come up within 90 s");
    }

    private void awaitAgent(CoordinatorProcess c, AgentProcess agent) throws Exception {
        for (int i = 0; i < 360; i++) {
            if (!agent.alive()) throw new IllegalStateException("the agent exited; see " + agent.log());
            if (c.get("/api/agents", Duration.ofSeconds(10)).size() >= 1) return;
            Thread.sleep(250);
        }
        throw new IllegalStateException("the agent did not register within 90 s; see " + agent.log());
    }

    private static List<Measurement> records(Path file) throws IOException {
        List<Measurement> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) if (!line.isBlank()) out.add(Protocol.JSON.readValue(line, Measurement.class));
        out.sort(Comparator.comparingLong(Measurement::startedAt));
        return out;
    }


}
