package org.tunefarm.coordinator.scale;

import com.sun.management.OperatingSystemMXBean;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.tunefarm.coordinator.local.CoordinatorProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.protocol.Protocol;

/**
 * {@code bench farm}: the farm's dispatch and ingest under many agents. A leading coordinator and
 * a replica run as their own processes (so an acknowledgement means two disks, as in production);
 * this JVM holds the simulated agents ({@link SimulatedAgent}), each with its own bridge
 * connection. For each agent count sleep sweeps are submitted over REST, sized so the agents
 * cannot finish them within the step, and measured over a window that opens once every agent holds
 * a lease (plus a warm-up) and closes after the step's seconds, or earlier if the sweep runs dry;
 * then the sweeps are cancelled and the agents disconnect. With real agents ({@link RealAgentsRun})
 * the agent processes measure a sweep to its end instead, and the overhead is read from records.
 */
public final class FarmRun {

    /**
     * @param agents        agent counts, one step each; the first is 1, the efficiency's base
     * @param candidateMs   how long each simulated candidate takes
     * @param seconds       each step's measured window
     * @param warmupSeconds the step's run before its window opens, once every agent holds a lease
     * @param quick         a smoke run: no unreported warm-up step first (which otherwise warms the coordinators' JIT
     *                      for the 1-agent base), and the real agents' sweep narrowed to a in {4, 5, 6} (97 candidates a shape)
     * @param realAgents    0 for simulated agents; otherwise real agent processes measure a sleep sweep
     * @param realShapes    the real agents' sweep: sleep shapes of 507 candidates each
     */
    public record Settings(List<Integer> agents, long candidateMs, double seconds, double warmupSeconds, int batch, boolean quick,
                           int realAgents, int realShapes, Path dir) {
        public Settings {
            if (agents.isEmpty() || agents.stream().anyMatch(n -> n < 1 || n > 10_000)) throw new IllegalArgumentException("--agents: counts from 1 to 10000, got " + agents);
            if (agents.get(0) != 1) {
                List<Integer> withBase = new ArrayList<>(List.of(1)); // efficiency is relative to one agent measured in the same run
                withBase.addAll(agents.stream().filter(n -> n != 1).toList());
                agents = List.copyOf(withBase);
            }
            if (candidateMs < 1 || candidateMs > 60_000) throw new IllegalArgumentException("--candidate-ms: from 1 to 60000, got " + candidateMs);
            if (!(seconds > 0) || seconds > 3600) throw new IllegalArgumentException("--seconds: in (0, 3600], got " + seconds);
            if (!(warmupSeconds >= 0) || warmupSeconds > 600) throw new IllegalArgumentException("--warmup: in [0, 600], got " + warmupSeconds);
            if (batch < SweepSpec.AUTO_BATCH || batch > SweepSpec.MAX_BATCH) throw new IllegalArgumentException("--batch: auto or from 1 to 1000, got " + batch);
            if (realAgents < 0 || realAgents > 64) throw new IllegalArgumentException("--real-agents: from 0 to 64, got " + realAgents);
            if (realShapes < 1 || realShapes > 64) throw new IllegalArgumentException("--real-shapes: from 1 to 64, got " + realShapes);
        }
    }

    /**
     * @param steps             one per agent count (empty with real agents)
     * @param real              the real agents' run, or null
     * @param everyAgentServed  every agent of every step had a candidate acknowledged (or every real agent a record)
     */
    public record Outcome(int cores, long candidateMs, int batch, double secondsPerStep, List<FarmStep> steps, RealAgentsRun.Result real,
                          boolean everyAgentServed) {}

    /** Simulated boards: one device class, so all agents share each shape's search. */
    static final DeviceProfile PROFILE = new DeviceProfile("simulated board", "sim", 4, 4, 32, 1024, 8192, 8, "Linux", "amd64", "bench", 25, 256,
            List.of(), Map.of("bench", "farm"));
    /** Candidates in one sleep shape (its 506 valid points and the baseline). */
    static final int SHAPE_CANDIDATES = 507;
    /** A sweep holds at most this many shapes; a step that needs more runs several sweeps of equal priority, which take turns. */
    private static final int SHAPES_PER_SWEEP = 256;
    /** At most this many agents connect and register at once: the bridge admits 512 unregistered connections per address. */
    private static final int JOINING_AT_ONCE = 128;

    private final Settings s;
    private final PrintStream log;
    private final String token = "farm-" + UUID.randomUUID();
    private final String cluster = "farm-" + UUID.randomUUID();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private CoordinatorProcess leader;
    private CoordinatorProcess replica;

    public FarmRun(Settings settings, PrintStream log) {
        this.s = settings;
        this.log = log;
    }

    public Outcome run() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        leader = CoordinatorProcess.start(List.of(), "1g", s.dir().resolve("coordinator-0"), FreePort.pick(), FreePort.pick(), token, cluster,
                s.dir().resolve("coordinator-0.log"), List.of());
        try {
            await("coordinator 0 leads", Duration.ofSeconds(120), () -> health(leader, "leader"));
            replica = CoordinatorProcess.start(List.of(), "1g", s.dir().resolve("coordinator-1"), FreePort.pick(), FreePort.pick(), token, cluster,
                    s.dir().resolve("coordinator-1.log"), List.of());
            try {
                await("coordinator 1 replicates", Duration.ofSeconds(120), () -> health(replica, "caughtUp"));
                if (!health(leader, "leader")) throw new IllegalStateException("coordinator 0 lost the lead when the replica joined");
                if (s.realAgents() > 0) {
                    RealAgentsRun.Result r = new RealAgentsRun(s, leader, token, this, log).run();
                    return new Outcome(cores, s.candidateMs(), s.batch(), 0, List.of(), r, r.agentsWithRecords() == s.realAgents());
                }
                return simulated(cores);
            } finally {
                replica.close();
            }
        } finally {
            leader.close();
        }
    }

    private Outcome simulated(int cores) throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            NetClient client = vertx.createNetClient(new NetClientOptions().setConnectTimeout(10_000).setTcpNoDelay(true).setTcpKeepAlive(true));
            if (!s.quick()) {
                int n = Math.min(16, s.agents().stream().mapToInt(Integer::intValue).max().orElse(1));
                FarmStep w = step(vertx, client, n, "warm", Math.min(s.seconds(), 5));
                log.printf("farm: warm-up step, %d agents: %.0f candidates/s%n", n, w.throughput());
            }
            List<FarmStep> steps = new ArrayList<>();
            for (int n : s.agents()) {
                FarmStep st = step(vertx, client, n, String.valueOf(steps.size()), s.seconds());
                double base = steps.isEmpty() ? st.throughput() : steps.get(0).throughput();
                st = st.withEfficiency(round(st.throughput() / (n * base)));
                log.println("farm: " + Protocol.write(st));
                steps.add(st);
            }
            boolean served = steps.stream().allMatch(x -> x.agentsServed() == x.agents());
            return new Outcome(cores, s.candidateMs(), s.batch(), s.seconds(), steps, null, served);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    private FarmStep step(Vertx vertx, NetClient client, int n, String name, double seconds) throws Exception {
        List<SimulatedAgent> agents = new ArrayList<>();
        for (int i = 0; i < n; i++) agents.add(new SimulatedAgent(vertx, "sim-" + name + "-" + i, token, PROFILE, s.candidateMs()));
        join(agents, client, leader.bridgePort());
        log.printf("farm: %d agents registered%n", n);
        // Enough candidates that the agents cannot run dry within the step, even at full speed.
        double stepSeconds = s.warmupSeconds() + seconds + 5;
        long lease = s.batch() != SweepSpec.AUTO_BATCH ? s.batch()
                : Math.min(SweepSpec.MAX_BATCH, (long) Math.ceil(SweepSpec.DEFAULT_LEASE_SECONDS * 1000 / s.candidateMs()));
        long needed = (long) Math.ceil(n * stepSeconds * 1000.0 / s.candidateMs() * 1.2) + n * lease;
        int shapes = (int) Math.max(1, (needed + SHAPE_CANDIDATES - 1) / SHAPE_CANDIDATES);
        List<String> sweeps = new ArrayList<>();
        for (int first = 0; first < shapes; first += SHAPES_PER_SWEEP) {
            sweeps.add(submit(sweepSpec("bench-farm-" + n, Math.min(SHAPES_PER_SWEEP, shapes - first), 100 + first, s.batch(),
                    "{minSamples: 10, minSampleMs: 1, maxWarmupMs: 5, timeoutMs: 10000, finalists: 0}")));
        }
        agents.forEach(SimulatedAgent::work);
        await("every agent holds a lease", Duration.ofSeconds(60 + n / 10), () -> agents.stream().allMatch(a -> a.firstLeaseNs() != 0));

        Thread.sleep((long) (s.warmupSeconds() * 1000));
        long from = System.nanoTime();
        Gauges g0 = gauges();
        long planned = from + (long) (seconds * 1e9);
        long to;
        boolean ranDry = false;
        while (true) {
            long now = System.nanoTime();
            long dry = agents.stream().mapToLong(SimulatedAgent::ranDryNs).filter(x -> x != 0).min().orElse(Long.MAX_VALUE);
            if (dry < planned) {
                to = Math.max(from + 1, dry);
                ranDry = true;
                break;
            }
            if (now >= planned) {
                to = now;
                break;
            }
            Thread.sleep(Math.min(50, (planned - now) / 1_000_000 + 1));
        }
        Gauges g1 = gauges();
        double wall = (to - from) / 1e9;

        for (String sweep : sweeps) cancel(sweep);
        Future.all(agents.stream().map(SimulatedAgent::stop).toList()).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        Future.all(agents.stream().map(SimulatedAgent::close).toList()).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        double heapMb = LiveHeap.mb(leader, log);
        return measure(agents, n, from, to, wall, g0, g1, heapMb, ranDry);
    }

    private static FarmStep measure(List<SimulatedAgent> agents, int n, long from, long to, double wall, Gauges g0, Gauges g1, double heapMb, boolean ranDry) {
        long candidates = 0;
        List<Double> dispatch = new ArrayList<>();
        List<Double> overhead = new ArrayList<>();
        List<Double> ack = new ArrayList<>();
        int served = 0;
        int errors = 0;
        String firstError = null;
        for (SimulatedAgent a : agents) {
            if (!a.candidates().isEmpty()) served++;
            errors += a.errors();
            if (firstError == null) firstError = a.firstError();
            for (SimulatedAgent.Dispatch d : a.dispatches()) if (d.leasedNs() >= from && d.leasedNs() < to) dispatch.add((d.leasedNs() - d.pulledNs()) / 1e6);
            List<SimulatedAgent.Candidate> cs = a.candidates();
            for (int i = 0; i < cs.size(); i++) {
                SimulatedAgent.Candidate c = cs.get(i);
                if (c.ackedNs() < from || c.ackedNs() >= to) continue;
                candidates++;
                ack.add((c.ackedNs() - c.endNs()) / 1e6);
                if (i + 1 < cs.size()) overhead.add((cs.get(i + 1).startNs() - c.endNs()) / 1e6);
            }
        }
        double[] d = dispatch.stream().mapToDouble(Double::doubleValue).toArray();
        double[] o = overhead.stream().mapToDouble(Double::doubleValue).toArray();
        double[] k = ack.stream().mapToDouble(Double::doubleValue).toArray();
        double[] loop = ThreadClocks.busiest(g0.leaderThreads(), g1.leaderThreads(), "vert.x-eventloo", wall);
        return new FarmStep(n, candidates, round(wall), round(candidates / wall), Double.NaN, round(Percentiles.of(d, 0.5)), round(Percentiles.of(d, 0.99)),
                round((g1.records() - g0.records()) / wall), share(g0.leaderCpuNs(), g1.leaderCpuNs(), wall), share(g0.replicaCpuNs(), g1.replicaCpuNs(), wall),
                share(g0.benchCpuNs(), g1.benchCpuNs(), wall), round(loop[0]), round(loop[1]),
                round(ThreadClocks.totalWait(g0.leaderThreads(), g1.leaderThreads(), wall)),
                round(meanMs(g0.leaderSyncS(), g1.leaderSyncS(), g0.leaderSyncs(), g1.leaderSyncs())),
                round(meanMs(g0.replicaSyncS(), g1.replicaSyncS(), g0.replicaSyncs(), g1.replicaSyncs())), round(heapMb), round(Percentiles.of(o, 0.5)), round(Percentiles.of(o, 0.9)),
                round(Percentiles.of(k, 0.5)), round(Percentiles.of(k, 0.99)), served, ranDry, errors, firstError);
    }

    /** Connects and registers the agents, at most {@link #JOINING_AT_ONCE} at a time. */
    private static void join(List<SimulatedAgent> agents, NetClient client, int port) throws Exception {
        Semaphore joining = new Semaphore(JOINING_AT_ONCE);
        List<Future<Void>> joined = new ArrayList<>();
        for (SimulatedAgent a : agents) {
            joining.acquire();
            joined.add(a.join(client, "127.0.0.1", port).andThen(ar -> joining.release()));
        }
        Future.all(joined).toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    }

    /**
     * Process CPU times (ns) of the two coordinators and this JVM, the leader's record count, each
     * coordinator's record-log sync timer (seconds in total, and appends), and the leader's threads' clocks.
     */
    private record Gauges(long leaderCpuNs, long replicaCpuNs, long benchCpuNs, double records, double leaderSyncS, double leaderSyncs,
                          double replicaSyncS, double replicaSyncs, Map<Long, ThreadClocks.Clock> leaderThreads) {}

    private Gauges gauges() throws Exception {
        long bench = ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        String l = leader.text("/metrics", Duration.ofSeconds(30));
        String r = replica.text("/metrics", Duration.ofSeconds(30));
        return new Gauges(cpuNs(leader.pid()), cpuNs(replica.pid()), bench, metric(l, "tunefarm_records_total"),
                metric(l, "tunefarm_record_log_sync_seconds_sum"), metric(l, "tunefarm_record_log_sync_seconds_count"),
                metric(r, "tunefarm_record_log_sync_seconds_sum"), metric(r, "tunefarm_record_log_sync_seconds_count"), ThreadClocks.of(leader.pid()));
    }

    /** The sum of a Prometheus metric's series in a /metrics text. */
    private static double metric(String text, String name) {
        double n = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) n += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
        return n;
    }

    private static long cpuNs(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration()).map(Duration::toNanos)
                .orElseThrow(() -> new IllegalStateException("the CPU time of process " + pid + " cannot be read on this system"));
    }

    /** A sleep sweep over {@code shapes} shapes, every point of each: exhaustive, no finalists. */
    /** {@code --batch}: {@code auto} (leases sized by time) or a fixed count. */
    public static int batch(String text) {
        if (text.equals("auto")) return SweepSpec.AUTO_BATCH;
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--batch: auto or from 1 to 1000, got " + text);
        }
    }

    static String sweepSpec(String name, int shapes, int unitUs, int batch, String measure) {
        return sweepSpec(name, shapes, unitUs, batch, measure, "");
    }

    /** @param space a narrowed space, e.g. {@code "space: {a: [4, 5, 6]}"}, or empty for the whole */
    static String sweepSpec(String name, int shapes, int unitUs, int batch, String measure, String space) {
        StringBuilder sh = new StringBuilder();
        for (int i = 0; i < shapes; i++) sh.append(i == 0 ? "" : ", ").append("{unitUs: ").append(unitUs + i).append('}');
        return """
                name: %s
                kernel: sleep
                shapes: [%s]
                %s
                strategy: {name: exhaustive, budget: 0}
                measure: %s
                batchSize: %s
                """.formatted(name, sh, space, measure, batch == SweepSpec.AUTO_BATCH ? "auto" : Integer.toString(batch));
    }

    /** Submits a sweep over REST; its id. */
    String submit(String spec) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(leader.base() + "/api/sweeps")).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(spec)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) throw new IllegalStateException("the sweep was refused: " + r.statusCode() + " " + r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }

    /**
     * Cancels a step's sweep; one the agents finished is left as it is (sweeps of equal priority
     * take turns, so the step's smallest may finish while the others still hold work).
     */
    private void cancel(String sweep) throws Exception {
        String path = "/api/sweeps/" + sweep + "/cancel";
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(leader.base() + path)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString("")).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 409 && "done".equals(leader.get("/api/sweeps/" + sweep, Duration.ofSeconds(10)).path("state").asText())) return;
        if (r.statusCode() != 200) throw new IllegalStateException(path + " answered " + r.statusCode() + " " + r.body());
    }

    private static boolean health(CoordinatorProcess c, String field) throws Exception {
        if (!c.alive()) throw new IllegalStateException("a coordinator exited; see its log");
        try {
            return c.get("/api/health", Duration.ofSeconds(10)).path(field).asBoolean();
        } catch (IOException e) {
            return false; // not answering yet
        }
    }

    /** A condition that may ask a coordinator. */
    interface Check {
        boolean test() throws Exception;
    }

    /** Polls until the condition holds; a clear error naming it when it does not within the time. */
    static void await(String what, Duration within, Check done) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        while (!done.test()) {
            if (System.nanoTime() > end) throw new IllegalStateException(what + ": not within " + within);
            Thread.sleep(20);
        }
    }

    /** Mean of a timer between two readings, ms; NaN when nothing was timed. */
    private static double meanMs(double sum0, double sum1, double count0, double count1) {
        return count1 > count0 ? (sum1 - sum0) / (count1 - count0) * 1000 : Double.NaN;
    }

    private static double share(long cpu0, long cpu1, double wall) {
        return round((cpu1 - cpu0) / 1e9 / wall);
    }

    static double round(double x) {
        return Double.isNaN(x) ? x : Math.round(x * 100) / 100.0;
    }
}
