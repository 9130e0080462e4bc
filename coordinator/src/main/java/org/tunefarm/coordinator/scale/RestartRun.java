package org.tunefarm.coordinator.scale;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.tunefarm.coordinator.local.CoordinatorProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.table.TableEntry;

/**
 * {@code bench restart}: a coordinator starting on a long history, and a second one with an
 * empty disk catching up from it. The history is written by {@link SyntheticHistory}; the first
 * coordinator (its own process, as in production) is timed from its start until it answers
 * /api/health as the leader, which it does only after it has read both logs and published the
 * table; its heap is read from its own JVM metrics on /metrics after a full collection, so the
 * figure is what the history keeps alive, not garbage. Its /api/table must be the table the same
 * records derive offline. The second coordinator joins the same cluster and is timed until its
 * record log holds every record.
 */
public final class RestartRun {

    /**
     * @param openCpuSeconds    CPU time the first coordinator's process spent until it led (all its threads:
     *                          JVM start, JIT and GC included), a figure a busy machine's other load does not inflate
     * @param heapMb            the live heap after start, MB (jvm_memory_used_bytes, area heap, after GC.run)
     * @param catchUpSeconds    null when the second coordinator did not catch up (see {@code catchUpFailure})
     * @param catchUpCpuSeconds CPU time the second coordinator's process spent until it had caught up, or null
     * @param catchUpRecords    records in the second coordinator's log when it caught up or the wait ended: with
     *                          {@code within}, a copy rate even when it did not catch up
     * @param sweeps            sweeps in the history; {@code retiredSweeps} of them over and let go
     */
    public record Outcome(long records, int sweeps, int retiredSweeps, long bytesOnDisk, double writeSeconds, double openSeconds, double openCpuSeconds, double heapMb,
                          boolean tableEqual, int tableEntries, Double catchUpSeconds, Double catchUpCpuSeconds, long catchUpRecords, String catchUpFailure,
                          String maxHeap) {}

    /**
     * @param records how many records the history holds
     * @param maxHeap each coordinator's -Xmx
     * @param within  how long each coordinator may take to start or catch up
     * @param running sweeps of the history left running, the last ones (the rest are over and let go); negative: all
     * @param catchUp whether a second coordinator catches up after the first started
     */
    public record Settings(long records, Path dir, String maxHeap, Duration within, int running, boolean catchUp) {}

    private final Settings s;
    private final PrintStream log;
    private final String token = "restart-" + UUID.randomUUID();
    private final String cluster = "restart-" + UUID.randomUUID();

    public RestartRun(Settings settings, PrintStream log) {
        this.s = settings;
        this.log = log;
    }

    public Outcome run() throws Exception {
        Path first = s.dir().resolve("coordinator-0");
        long t0 = System.nanoTime();
        SyntheticHistory.Written w = SyntheticHistory.write(first, s.records(), 13, s.running());
        double writeSeconds = seconds(t0);
        log.printf("restart: wrote %d records, %d bytes, %d sweeps (%d over and let go), in %.1f s%n", w.records(), w.bytes(), w.sweeps(),
                w.retired(), writeSeconds);
        Map<String, TableEntry> derived = derive(first.resolve("records.jsonl"));

        try (CoordinatorProcess leader = start(first, "coordinator-0.log")) {
            long started = System.nanoTime();
            await(leader, "coordinator 0 leads", h -> h.path("leader").asBoolean());
            double openSeconds = seconds(started);
            double openCpu = cpuSeconds(leader);
            log.printf("restart: coordinator 0 leads after %.1f s (%.1f s of CPU)%n", openSeconds, openCpu);
            double heapMb = LiveHeap.mb(leader, log);
            JsonNode table = leader.get("/api/table", Duration.ofSeconds(30));
            boolean tableEqual = tableEquals(derived, table);

            Double catchUpSeconds = null;
            Double catchUpCpu = null;
            String failure = null;
            Path second = s.dir().resolve("coordinator-1");
            if (!s.catchUp()) {
                return new Outcome(w.records(), w.sweeps(), w.retired(), w.bytes(), round(writeSeconds), round(openSeconds), round(openCpu), round(heapMb),
                        tableEqual, derived.size(), null, null, 0, "not asked (--no-catch-up)", s.maxHeap());
            }
            try (CoordinatorProcess joining = start(second, "coordinator-1.log")) {
                long joined = System.nanoTime();
                try {
                    await(joining, "coordinator 1 caught up", h -> h.path("caughtUp").asBoolean() && lines(second.resolve("records.jsonl")) >= w.records());
                    catchUpSeconds = seconds(joined);
                    catchUpCpu = round(cpuSeconds(joining));
                    log.printf("restart: coordinator 1 caught up after %.1f s (%.1f s of CPU)%n", catchUpSeconds, catchUpCpu);
                } catch (IllegalStateException e) {
                    failure = e.getMessage();
                    log.println("restart: " + failure);
                }
            }
            long copied = lines(second.resolve("records.jsonl"));
            return new Outcome(w.records(), w.sweeps(), w.retired(), w.bytes(), round(writeSeconds), round(openSeconds), round(openCpu), round(heapMb), tableEqual,
                    derived.size(), catchUpSeconds == null ? null : round(catchUpSeconds), catchUpCpu, copied, failure, s.maxHeap());
        }
    }

    private CoordinatorProcess start(Path home, String logName) throws IOException {
        return CoordinatorProcess.start(List.of(), s.maxHeap(), home, FreePort.pick(), FreePort.pick(), token, cluster,
                s.dir().resolve(logName), List.of("--quorum", "1"));
    }

    /** The table the records derive, read the way an auditor would: every line, folded slot by slot. */
    static Map<String, TableEntry> derive(Path records) throws IOException {
        Map<String, TableEntry> slots = new HashMap<>();
        try (BufferedReader r = Files.newBufferedReader(records, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                Measurement m = Protocol.JSON.readValue(line, Measurement.class);
                for (TableEntry e : TableEntry.entries(m, 0)) slots.merge(e.slot(), e, TableEntry::merge);
            }
        }
        return slots;
    }

    /** Same slots, and in each the same winner with the same median (the served figures also carry GFLOP/s, which the offline fold leaves out). */
    static boolean tableEquals(Map<String, TableEntry> derived, JsonNode table) {
        int served = 0;
        for (JsonNode n : table.path("entries")) {
            TableEntry e = Protocol.JSON.convertValue(n, TableEntry.class);
            TableEntry d = derived.get(e.slot());
            if (d == null || !d.params().equals(e.params()) || d.stats().medianNs() != e.stats().medianNs() || d.index() != e.index()
                    || !d.sweepId().equals(e.sweepId())) return false;
            served++;
        }
        return served == derived.size();
    }

    /** CPU time the coordinator's process has used so far, every thread; NaN where the OS does not say. */
    private static double cpuSeconds(CoordinatorProcess c) {
        return ProcessHandle.of(c.pid()).flatMap(p -> p.info().totalCpuDuration()).map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
    }

    /** A health answer that means done; may read the disk. */
    private interface Ready {
        boolean test(JsonNode health) throws IOException;
    }

    private void await(CoordinatorProcess c, String what, Ready ready) throws Exception {
        long end = System.nanoTime() + s.within().toNanos();
        while (System.nanoTime() < end) {
            if (!c.alive()) throw new IllegalStateException(what + ": the coordinator exited; see its log in " + s.dir());
            try {
                if (ready.test(c.get("/api/health", Duration.ofSeconds(30)))) return;
            } catch (IOException e) {
                // not answering yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(what + ": not within " + s.within());
    }

    /** Lines in a file, counted by bytes (a record log of millions of lines is read in seconds this way). */
    static long lines(Path file) throws IOException {
        if (!Files.exists(file)) return 0;
        long n = 0;
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int k = in.read(buf); k >= 0; k = in.read(buf)) for (int i = 0; i < k; i++) if (buf[i] == '\n') n++;
        }
        return n;
    }



    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static double round(double x) {
        return Math.round(x * 100) / 100.0;
    }
}
