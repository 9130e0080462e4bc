package org.tunefarm.coordinator.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.CoordinatorProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.protocol.Protocol;

/**
 * The chaos run: real coordinator and agent processes on loopback run a sleep sweep while agents
 * are killed with -9 and restarted, and once the leading coordinator is; then the records on every
 * coordinator and the table are checked against the full space ({@link ChaosAudit}).
 */
public final class ChaosRun {

    /**
     * @param shapes  sleep shapes in the sweep; each has 506 valid points plus its baseline
     * @param unitUs  the sleep kernel's time unit: sets how long each candidate takes
     * @param maxA    the sweep keeps a in [0, maxA] (15: the whole space), for shorter runs
     */
    public record Settings(int coordinators, int agents, int seconds, int shapes, int unitUs, int maxA, long seed, Path dir) {}

    private final Settings s;
    private final PrintStream log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Random random;
    private final List<CoordinatorProcess> coordinators = new ArrayList<>();
    private final List<AgentProcess> agents = new ArrayList<>();
    private final String token = "chaos-" + UUID.randomUUID();
    private final String cluster = "chaos-" + UUID.randomUUID();
    private int agentKills;
    private int coordinatorKills;

    /** How long after the logs agree the served table may take to match them. */
    static final Duration TABLE_CATCH_UP = Duration.ofSeconds(30);

    public ChaosRun(Settings settings, PrintStream log) {
        this.s = settings;
        this.log = log;
        this.random = new Random(settings.seed());
    }

    public ChaosAudit.Outcome run() throws Exception {
        long started = System.currentTimeMillis();
        try {
            for (int i = 0; i < s.coordinators(); i++) {
                coordinators.add(CoordinatorProcess.start(s.dir().resolve("coordinator-" + i), FreePort.pick(), FreePort.pick(), token, cluster,
                        s.dir().resolve("coordinator-" + i + ".log")));
                awaitHealthy(coordinators.get(i), Duration.ofSeconds(90));
            }
            for (int i = 0; i < s.agents(); i++) agents.add(startAgent(i));
            awaitAgents(Duration.ofSeconds(90));
            String sweep = submit();
            log.println("chaos: sweep " + sweep + " started with " + s.coordinators() + " coordinators and " + s.agents() + " agents");
            chaos(sweep);
            log.println("chaos: done killing; waiting for the sweep to finish");
            awaitDone(sweep, Duration.ofMinutes(10));
            awaitReplicas(sweep, Duration.ofSeconds(120));
            // A coordinator merges its table from records as they arrive: read at the instant the logs
            // agreed, the served table once lagged them (every record present, the table not yet
            // their winners). So the table is read again, for up to TABLE_CATCH_UP, until it matches;
            // one that never matches its records still fails the audit, and a late match is logged.
            long tableFrom = System.currentTimeMillis();
            ChaosAudit.Outcome outcome;
            while (true) {
                JsonNode table = live().get("/api/table?op=sleep", Duration.ofSeconds(10));
                outcome = ChaosAudit.audit(sweep, s.shapes(), s.unitUs(), s.maxA(), coordinators.stream().map(CoordinatorProcess::data).toList(),
                        table, agentKills, coordinatorKills, (System.currentTimeMillis() - started) / 1000);
                if (outcome.tableMatchesRecords() || System.currentTimeMillis() - tableFrom > TABLE_CATCH_UP.toMillis()) break;
                Thread.sleep(250);
            }
            long tableMs = System.currentTimeMillis() - tableFrom;
            if (!outcome.tableMatchesRecords()) log.println("chaos: the served table still differs from the records after " + tableMs + " ms");
            else if (tableMs > 1000) log.println("chaos: the served table matched the records " + tableMs + " ms after the logs did");
            stopAll();
            return outcome;
        } finally {
            stopAll();
        }
    }

    private void chaos(String sweep) throws Exception {
        long end = System.currentTimeMillis() + s.seconds() * 1000L;
        long coordinatorKillAt = System.currentTimeMillis() + s.seconds() * 400L;
        while (System.currentTimeMillis() < end) {
            Thread.sleep(1500 + random.nextInt(2500));
            if (coordinatorKills == 0 && s.coordinators() > 1 && System.currentTimeMillis() >= coordinatorKillAt) {
                int leader = leader();
                CoordinatorProcess c = coordinators.get(leader);
                log.println("chaos: kill -9 coordinator " + leader + " (the leader)");
                c.kill();
                coordinatorKills++;
                Thread.sleep(3000 + random.nextInt(3000));
                coordinators.set(leader, CoordinatorProcess.start(c.data(), c.httpPort(), c.bridgePort(), token, cluster,
                        s.dir().resolve("coordinator-" + leader + ".log")));
                log.println("chaos: coordinator " + leader + " restarted on its data folder");
                continue;
            }
            int i = random.nextInt(agents.size());
            agents.get(i).kill();
            agentKills++;
            log.println("chaos: kill -9 agent-" + i + " (" + agentKills + " agent kills)");
            Thread.sleep(300 + random.nextInt(1500));
            agents.set(i, startAgent(i));
        }
    }

    private AgentProcess startAgent(int i) throws IOException {
        // Each agent lists every coordinator, starting with a different one, so the bridges share the load.
        List<String> bridges = new ArrayList<>();
        for (int k = 0; k < coordinators.size(); k++) bridges.add("127.0.0.1:" + coordinators.get((i + k) % coordinators.size()).bridgePort());
        return AgentProcess.start("agent-" + i, bridges, token, s.dir().resolve("agent-" + i + ".log"), List.of());
    }

    private String submit() throws Exception {
        StringBuilder shapes = new StringBuilder();
        for (int i = 0; i < s.shapes(); i++) shapes.append(i == 0 ? "" : ", ").append("{unitUs: ").append(s.unitUs() + i).append('}');
        String spec = """
                name: chaos
                kernel: sleep
                shapes: [%s]
                space: {a: %s}
                strategy: {name: exhaustive, budget: 0}
                measure: {minSamples: 3, minSampleMs: 1, maxWarmupMs: 5, timeoutMs: 10000}
                batchSize: 12
                """.formatted(shapes, java.util.stream.IntStream.rangeClosed(0, s.maxA()).boxed().toList());
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(live().base() + "/api/sweeps"))
                .POST(HttpRequest.BodyPublishers.ofString(spec)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) throw new IllegalStateException("sweep refused: " + r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }

    private void awaitDone(String sweep, Duration within) throws Exception {
        long end = System.currentTimeMillis() + within.toMillis();
        String last = "";
        while (System.currentTimeMillis() < end) {
            try {
                JsonNode st = live().get("/api/sweeps/" + sweep, Duration.ofSeconds(10));
                int measured = 0;
                for (JsonNode p : st.path("searches")) measured += p.path("measured").asInt();
                String line = st.path("state").asText() + " " + measured;
                if (!line.equals(last)) log.println("chaos: sweep " + line + " measured");
                last = line;
                if ("done".equals(st.path("state").asText())) return;
            } catch (IOException e) {
                // a coordinator is restarting; ask again
            }
            Thread.sleep(1000);
        }
        throw new IllegalStateException("the sweep did not finish within " + within);
    }

    /**
     * Waits until every coordinator is up, has read its peers' logs to the end and holds every
     * record of the sweep. The sweep can end while the restarted leader is still starting, or before
     * its catch-up (every few seconds) has copied the last records; the audit is of the settled farm.
     * If they do not settle in time, the audit says how many records each lacks.
     */
    private void awaitReplicas(String sweep, Duration within) throws Exception {
        long end = System.currentTimeMillis() + within.toMillis();
        List<Path> data = coordinators.stream().map(CoordinatorProcess::data).toList();
        while (System.currentTimeMillis() < end) {
            if (allCaughtUp() && ChaosAudit.replicaGaps(sweep, data) == 0) return;
            Thread.sleep(500);
        }
        log.println("chaos: the coordinators' logs still differ after " + within.toSeconds() + " s");
    }

    private boolean allCaughtUp() throws InterruptedException {
        for (CoordinatorProcess c : coordinators) {
            try {
                if (!c.alive() || !c.get("/api/health", Duration.ofSeconds(10)).path("caughtUp").asBoolean()) return false;
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    private void awaitHealthy(CoordinatorProcess c, Duration within) throws Exception {
        long end = System.currentTimeMillis() + within.toMillis();
        while (System.currentTimeMillis() < end) {
            if (!c.alive()) throw new IllegalStateException("a coordinator exited; see " + s.dir());
            try {
                c.get("/api/health", Duration.ofSeconds(10));
                return;
            } catch (IOException e) {
                Thread.sleep(250);
            }
        }
        throw new IllegalStateException("a coordinator did not come up within " + within);
    }

    private void awaitAgents(Duration within) throws Exception {
        long end = System.currentTimeMillis() + within.toMillis();
        while (System.currentTimeMillis() < end) {
            if (live().get("/api/agents", Duration.ofSeconds(10)).size() >= s.agents()) return;
            Thread.sleep(250);
        }
        throw new IllegalStateException("agents did not register within " + within);
    }

    private int leader() throws Exception {
        for (int i = 0; i < coordinators.size(); i++) {
            try {
                if (coordinators.get(i).get("/api/health", Duration.ofSeconds(10)).path("leader").asBoolean()) return i;
            } catch (IOException ignored) {
                // not answering
            }
        }
        return 0;
    }

    /** A coordinator that answers REST right now. */
    private CoordinatorProcess live() throws Exception {
        for (int attempt = 0; attempt < 120; attempt++) {
            for (CoordinatorProcess c : coordinators) {
                try {
                    if (c.alive()) {
                        c.get("/api/health", Duration.ofSeconds(10));
                        return c;
                    }
                } catch (IOException ignored) {
                    // try the next
                }
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("no coordinator answers");
    }



    private void stopAll() {
        agents.forEach(AgentProcess::close);
        coordinators.forEach(CoordinatorProcess::close);
    }

}
