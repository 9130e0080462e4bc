package org.tunefarm.coordinator.scale;

import java.io.BufferedReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.CoordinatorProcess;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.SleepSpec;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * {@code bench farm --real-agents N}: N agent processes (each with its worker JVM, as on a board)
 * measure a sleep sweep to its end with the lightest harness settings (one sample, no warm-up, no
 * finalists), so what is left between candidates is the harness's and the farm's own overhead;
 * {@link CandidateOverhead} reads it from the leader's records. The sleep shape is chosen so a
 * candidate sleeps {@code candidateMs} on average.
 */
final class RealAgentsRun {

    /** @param agentsWithRecords agents that measured at least one candidate */
    record Result(int agents, int batch, int unitUs, double sweepSeconds, double throughput, int agentsWithRecords, CandidateOverhead overhead) {}

    /** A smoke run's space: a in {4, 5, 6}, every b and mode (96 points) and the baseline. */
    static final String QUICK_SPACE = "space: {a: [4, 5, 6]}";
    static final int QUICK_SHAPE_CANDIDATES = 97;
    static final String MEASURE = "{minSamples: 1, minSampleMs: 0.01, maxWarmupMs: 0, timeoutMs: 10000, finalists: 0}";

    private final FarmRun.Settings s;
    private final CoordinatorProcess leader;
    private final String token;
    private final FarmRun farm;
    private final PrintStream log;

    RealAgentsRun(FarmRun.Settings s, CoordinatorProcess leader, String token, FarmRun farm, PrintStream log) {
        this.s = s;
        this.leader = leader;
        this.token = token;
        this.farm = farm;
        this.log = log;
    }

    Result run() throws Exception {
        List<AgentProcess> agents = new ArrayList<>();
        try {
            for (int i = 0; i < s.realAgents(); i++) {
                agents.add(AgentProcess.start("agent-" + i, List.of("127.0.0.1:" + leader.bridgePort()), token, s.dir().resolve("agent-" + i + ".log"), List.of()));
            }
            FarmRun.await("the real agents register", Duration.ofSeconds(120), () -> alive() >= s.realAgents());
            int unitUs = (int) Math.max(1, Math.round(s.candidateMs() * 1000.0 / meanUnits()));
            int perShape = s.quick() ? QUICK_SHAPE_CANDIDATES : FarmRun.SHAPE_CANDIDATES;
            String sweep = farm.submit(FarmRun.sweepSpec("bench-farm-real", s.realShapes(), unitUs, s.batch(), MEASURE, s.quick() ? QUICK_SPACE : ""));
            log.printf("farm: %d real agents measure sweep %s (%d candidates, unitUs %d)%n", s.realAgents(), sweep, s.realShapes() * perShape, unitUs);
            long started = System.nanoTime();
            long expected = (long) s.realShapes() * perShape * s.candidateMs() / s.realAgents();
            FarmRun.await("the real agents' sweep ends", Duration.ofMillis(120_000 + 20 * expected), () -> {
                if (agents.stream().anyMatch(a -> !a.alive())) throw new IllegalStateException("an agent exited; see its log in " + s.dir());
                return "done".equals(leader.get("/api/sweeps/" + sweep, Duration.ofSeconds(30)).path("state").asText());
            });
            double seconds = (System.nanoTime() - started) / 1e9;
            List<Measurement> records = records(leader.data().resolve("records.jsonl"), sweep);
            CandidateOverhead o = CandidateOverhead.of(records);
            return new Result(s.realAgents(), s.batch(), unitUs, FarmRun.round(seconds), FarmRun.round(records.size() / seconds), o.agents(), o);
        } finally {
            agents.forEach(AgentProcess::close);
        }
    }

    private int alive() throws Exception {
        int n = 0;
        for (var a : leader.get("/api/agents", Duration.ofSeconds(30))) if (a.path("alive").asBoolean()) n++;
        return n;
    }

    /** The sleep kernel's mean call time over its space, in units. */
    static double meanUnits() {
        double sum = 0;
        int n = 0;
        for (int a = 0; a <= 15; a++) {
            for (int b = 0; b <= 15 && a + b <= 28; b++) {
                for (String mode : List.of("slow", "fast")) {
                    sum += SleepSpec.sleepMicros(new KernelKey("sleep", Map.of("unitUs", 1), "f32"), Map.of("a", a, "b", b, "mode", mode));
                    n++;
                }
            }
        }
        return sum / n;
    }

    private static List<Measurement> records(Path log, String sweep) throws Exception {
        List<Measurement> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                Measurement m = Protocol.JSON.readValue(line, Measurement.class);
                if (sweep.equals(m.sweepId())) out.add(m);
            }
        }
        return out;
    }
}
