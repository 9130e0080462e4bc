package org.tunefarm.coordinator.scale;

import io.vertx.core.Context;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.tunefarm.coordinator.replica.ReplicaVerticle;
import org.tunefarm.coordinator.replica.Replication;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpecs;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.space.SearchSpace;

/**
 * {@code bench ingest}: durable records per second when many agents report at once, each report
 * acknowledged only once its records are fsynced on two coordinators. Two {@link IngestNode}s
 * form a cluster; simulated agents, all on one event-loop context of the first (as the leader's
 * farm verticle is one context), each keep one report out at a time through
 * {@code Replication.append}, the step {@code FarmVerticle.onReport} makes a report durable with,
 * and send the next when it is acknowledged. Afterwards both logs are read back: each must hold
 * exactly the acknowledged records, each agent's in the order it sent them.
 */
public final class IngestRun {
    /** What the timed path holds, said in the bench's output. */
    static final String PATH = "Replication.append (FarmVerticle.onReport's durable step) from one leader context: leader's record log"
            + " write + fsync, clustered event bus over loopback TCP to a second Vert.x/Hazelcast node's ReplicaVerticle, its record log"
            + " write + fsync, reply; both nodes in this JVM; no bridge, dispatcher or table publish";
    /** Attempts per report before an agent gives up (a report refused with 503 is sent again, as an agent does). */
    static final int ATTEMPTS = 5;

    /**
     * @param recordsPerFsync records made durable per fsync, both logs counted: 2 x records / fsyncs
     * @param durableOnBoth   both logs hold exactly the acknowledged records, each agent's in order
     * @param checkFailure    why not, when not
     */
    public record Outcome(int agents, int recordsPerReport, long records, long reports, double seconds, double recordsPerSecond,
                          long fsyncs, long leaderFsyncs, long replicaFsyncs, double recordsPerFsync, double ackP50Ms, double ackP99Ms,
                          double ackMaxMs, long failedReports, boolean durableOnBoth, String checkFailure, int cores, String path,
                          CopyComparison copyComparison) {}

    /** One stretch of a compared run, all of it with one copy format. */
    public record Phase(String copyFormat, double seconds, double recordsPerSecond) {}

    /**
     * {@code --compare-copy}: the run cut into stretches that alternate the copy format (text,
     * objects, text, objects, ...) in this one process, after one uncounted stretch of each for the
     * JIT; {@code textOverObjects} is the median of each text stretch's records/s over the objects
     * stretch after it, with the least and greatest.
     */
    public record CopyComparison(List<Phase> phases, double textOverObjects, double textOverObjectsMin, double textOverObjectsMax) {}

    /** Stretches of each copy format in a compared run. */
    static final int COMPARED_PAIRS = 3;

    /**
     * @param agents           agents reporting at once, each with one report out
     * @param recordsPerReport records in each report (the agent sends one per candidate today)
     * @param seconds          how long agents keep sending new reports
     */
    public record Settings(int agents, int recordsPerReport, double seconds, Path dir, boolean compareCopy) {
        public Settings(int agents, int recordsPerReport, double seconds, Path dir) {
            this(agents, recordsPerReport, seconds, dir, false);
        }
    }

    private final Settings s;
    private final PrintStream log;
    private final Random random = new Random(17);
    private final KernelKey key;
    private final Map<String, Object> params;
    private final long epochMs = System.currentTimeMillis();

    public IngestRun(Settings settings, PrintStream log) {
        this.s = settings;
        this.log = log;
        this.key = SyntheticHistory.gemmSweep(0).keys().get(0);
        SearchSpace space = KernelSpecs.get(key.op()).space(key, SyntheticHistory.CORES, SyntheticHistory.VECTOR_BITS);
        this.params = space.config(space.validIndices(0, space.size()).next());
    }

    /** What the agents did, kept on the leader's context thread only. */
    private final class Agents {
        final long[] sent = new long[s.agents()];
        long[] latencies = new long[1 << 16];
        int reports;
        long failed;
        final CountDownLatch finished = new CountDownLatch(s.agents());
        volatile boolean stopping;

        void report(IngestNode leader, int agent, List<Measurement> batch, int attempt) {
            long t0 = System.nanoTime();
            leader.replication.append(batch).onComplete(ar -> {
                if (ar.failed()) {
                    failed++;
                    if (attempt >= ATTEMPTS) {
                        log.println("ingest: agent " + agent + " gave up on a report: " + ar.cause().getMessage());
                        finished.countDown();
                    } else {
                        leader.vertx.setTimer(100L * attempt, t -> report(leader, agent, batch, attempt + 1));
                    }
                    return;
                }
                if (reports == latencies.length) latencies = Arrays.copyOf(latencies, reports * 2);
                latencies[reports++] = System.nanoTime() - t0;
                sent[agent] += batch.size();
                if (stopping) finished.countDown();
                else report(leader, agent, batch(agent, sent[agent]), 1);
            });
        }
    }

    public Outcome run() throws Exception {
        String cluster = "ingest-" + UUID.randomUUID();
        Path leaderData = s.dir().resolve("coordinator-0");
        Path replicaData = s.dir().resolve("coordinator-1");
        Agents agents = new Agents();
        CopyComparison comparison = null;
        long nanos;
        long leaderFsyncs;
        long replicaFsyncs;
        try (IngestNode leader = IngestNode.start(cluster, leaderData); IngestNode replica = IngestNode.start(cluster, replicaData)) {
            awaitPeer(leader, replica);
            log.printf("ingest: two coordinators up; %d agents, %d records a report, for %.0f s%n", s.agents(), s.recordsPerReport(), s.seconds());
            Context context = leader.vertx.getOrCreateContext();
            long leader0 = leader.log.fsyncs();
            long replica0 = replica.log.fsyncs();
            long start = System.nanoTime();
            context.runOnContext(v -> {
                for (int a = 0; a < s.agents(); a++) agents.report(leader, a, batch(a, 0), 1);
            });
            if (s.compareCopy()) comparison = compare(leader, context, agents);
            else Thread.sleep((long) (s.seconds() * 1000));
            agents.stopping = true;
            if (!agents.finished.await(2, TimeUnit.MINUTES)) throw new IllegalStateException("agents still waiting for acks 2 minutes after the end");
            nanos = System.nanoTime() - start;
            leaderFsyncs = leader.log.fsyncs() - leader0;
            replicaFsyncs = replica.log.fsyncs() - replica0;
        }
        long records = Arrays.stream(agents.sent).sum();
        String failure = check(leaderData.resolve("records.jsonl"), agents.sent);
        if (failure == null) failure = check(replicaData.resolve("records.jsonl"), agents.sent);
        long[] lat = Arrays.copyOf(agents.latencies, agents.reports);
        Arrays.sort(lat);
        double seconds = nanos / 1e9;
        long fsyncs = leaderFsyncs + replicaFsyncs;
        return new Outcome(s.agents(), s.recordsPerReport(), records, agents.reports, round(seconds), round(records / seconds), fsyncs,
                leaderFsyncs, replicaFsyncs, fsyncs == 0 ? 0 : round(2.0 * records / fsyncs), ms(percentile(lat, 0.50)), ms(percentile(lat, 0.99)),
                ms(lat.length == 0 ? 0 : lat[lat.length - 1]), agents.failed, failure == null, failure, Runtime.getRuntime().availableProcessors(), PATH,
                comparison);
    }

    /**
     * Runs the window as stretches that alternate the leader's copy format, switched on the
     * leader's context between reports; a stretch counts the records acknowledged within it.
     */
    private CopyComparison compare(IngestNode leader, Context context, Agents agents) throws Exception {
        List<Phase> phases = new ArrayList<>();
        // Two stretches first, one of each format, for the JIT: not counted.
        double stretch = s.seconds() / (2 * COMPARED_PAIRS + 2);
        for (int i = -2; i < 2 * COMPARED_PAIRS; i++) {
            Replication.CopyFormat format = i % 2 == 0 ? Replication.CopyFormat.TEXT : Replication.CopyFormat.OBJECTS;
            CompletableFuture<Long> switched = new CompletableFuture<>();
            context.runOnContext(v -> {
                leader.replication.copyAs(format);
                switched.complete(Arrays.stream(agents.sent).sum());
            });
            long acked = switched.get(10, TimeUnit.SECONDS);
            long at = System.nanoTime();
            Thread.sleep((long) (stretch * 1000));
            CompletableFuture<Long> ended = new CompletableFuture<>();
            context.runOnContext(v -> ended.complete(Arrays.stream(agents.sent).sum()));
            long now = ended.get(10, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - at) / 1e9;
            if (i >= 0) phases.add(new Phase(format.name().toLowerCase(java.util.Locale.ROOT), round(seconds), round((now - acked) / seconds)));
        }
        context.runOnContext(v -> leader.replication.copyAs(Replication.CopyFormat.TEXT));
        double[] ratios = new double[COMPARED_PAIRS];
        for (int p = 0; p < COMPARED_PAIRS; p++) ratios[p] = phases.get(2 * p).recordsPerSecond() / phases.get(2 * p + 1).recordsPerSecond();
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        log.printf("ingest: copy as text over as objects, per pair of stretches: %s%n", Arrays.toString(ratios));
        return new CopyComparison(phases, round(sorted[COMPARED_PAIRS / 2]), round(sorted[0]), round(sorted[COMPARED_PAIRS - 1]));
    }

    /** Agent {@code agent}'s next report: its records numbered from {@code first}, in its own sweep. */
    private List<Measurement> batch(int agent, long first) {
        List<Measurement> out = new ArrayList<>(s.recordsPerReport());
        for (long i = first; i < first + s.recordsPerReport(); i++) {
            // Stamped with an implementation, as every agent's record is.
            out.add(SyntheticHistory.measurement(sweep(agent), key, i, params, SyntheticHistory.CLASSES.get(0), 0, 1e6, epochMs + 10 * i, (int) i, random)
                    .ofImplementation(1));
        }
        return out;
    }

    private static String sweep(int agent) {
        return "ingest-" + agent;
    }

    /**
     * Until the leader sees the replica and reaches its replica verticle, an append would be
     * acknowledged on one disk (no peer) or refused (no handler): the run starts after an empty
     * copy went through.
     */
    private static void awaitPeer(IngestNode leader, IngestNode replica) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                if (leader.nodes().contains(replica.nodeId)) {
                    IngestNode.await(leader.vertx.eventBus().request(ReplicaVerticle.recordsAddress(replica.nodeId), new JsonObject().put("lines", new JsonArray()),
                            new DeliveryOptions().setSendTimeout(5_000)));
                    return;
                }
            } catch (java.util.concurrent.ExecutionException e) {
                // not subscribed yet
            }
            if (System.nanoTime() > end) throw new IllegalStateException("the two coordinators did not find each other within 60 s");
            Thread.sleep(100);
        }
    }

    /** Null when the log holds exactly the acknowledged records, each agent's in order; else what is wrong. */
    static String check(Path file, long[] acknowledged) throws IOException {
        long[] next = new long[acknowledged.length];
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                Measurement m = Protocol.JSON.readValue(line, Measurement.class);
                int agent = Integer.parseInt(m.sweepId().substring("ingest-".length()));
                if (m.index() != next[agent]) {
                    return file + ": agent " + agent + "'s record " + m.index() + " where " + next[agent] + " was next";
                }
                next[agent]++;
            }
        }
        for (int a = 0; a < next.length; a++) {
            if (next[a] != acknowledged[a]) return file + ": agent " + a + " has " + next[a] + " records, " + acknowledged[a] + " acknowledged";
        }
        return null;
    }

    private static long percentile(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    private static double ms(long nanos) {
        return round(nanos / 1e6);
    }

    private static double round(double x) {
        return Math.round(x * 100) / 100.0;
    }
}
