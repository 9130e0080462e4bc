package org.tunefarm.coordinator.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.SleepSpec;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.space.SearchSpace;
import org.tunefarm.table.BestKernelTable;
import org.tunefarm.table.TableEntry;

/**
 * Checks a finished chaos sweep against the full space: every valid point and baseline of every
 * shape recorded (lost counts those missing from the union of the coordinators' logs), no record
 * twice in any log, every log holding every record, and the table's entries equal to what the
 * records say is fastest and to the sleep kernel's known optimum.
 */
public final class ChaosAudit {

    /** What the run's last line reports. */
    public record Outcome(int candidates, int recorded, int lost, int duplicates, int agentKills, int coordinatorKills, long seconds,
                          int replicaGaps, boolean tableMatchesRecords, boolean optimumFound) {
        public boolean passed() {
            return lost == 0 && duplicates == 0;
        }
    }

    private ChaosAudit() {}

    static Outcome audit(String sweep, int shapes, int unitUs, int maxA, List<Path> dataDirs, JsonNode table, int agentKills, int coordinatorKills,
                         long seconds) throws IOException {
        Set<String> expected = expected(shapes, unitUs, maxA);
        Map<String, Measurement> union = new HashMap<>();
        int duplicates = 0;
        int gaps = 0;
        List<Set<String>> perLog = new java.util.ArrayList<>();
        for (Path dir : dataDirs) {
            Set<String> ids = new HashSet<>();
            for (Measurement m : records(sweep, dir)) {
                if (!ids.add(m.recordId())) duplicates++;
                union.putIfAbsent(m.recordId(), m);
            }
            perLog.add(ids);
        }
        for (Set<String> ids : perLog) gaps += union.size() - ids.size();
        // Finalists are measured again in later rounds: a candidate is recorded when its first round is.
        Set<String> firstRounds = new HashSet<>();
        for (Measurement m : union.values()) if (m.round() == 0) firstRounds.add(m.key().id() + "/" + m.index());
        int lost = 0;
        for (String id : expected) if (!firstRounds.contains(id)) lost++;
        return new Outcome(expected.size(), firstRounds.size(), lost, duplicates, agentKills, coordinatorKills, seconds, gaps,
                tableMatches(union, table), optimumFound(table, shapes));
    }

    /** Records missing from some coordinator's log, summed over the coordinators. */
    public static int replicaGaps(String sweep, List<Path> dataDirs) throws IOException {
        Set<String> union = new HashSet<>();
        List<Set<String>> each = new java.util.ArrayList<>();
        for (Path d : dataDirs) {
            Set<String> ids = new HashSet<>();
            for (Measurement m : records(sweep, d)) ids.add(m.recordId());
            union.addAll(ids);
            each.add(ids);
        }
        int gaps = 0;
        for (Set<String> ids : each) gaps += union.size() - ids.size();
        return gaps;
    }

    /** The sweep's records in one coordinator's log, in log order; a line torn by a write in progress is skipped. */
    public static List<Measurement> records(String sweep, Path data) throws IOException {
        Path f = data.resolve("records.jsonl");
        List<Measurement> out = new java.util.ArrayList<>();
        if (!Files.exists(f)) return out;
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
            if (line.isBlank()) continue;
            try {
                Measurement m = Protocol.JSON.readValue(line, Measurement.class);
                if (m.sweepId().equals(sweep)) out.add(m);
            } catch (IOException e) {
                // a line torn by a write in progress: the next look sees it whole
            }
        }
        return out;
    }

    /**
     * Every candidate of the sleep sweep the farm benchmarks run ({@code kernel/index}): the valid
     * points of each shape with {@code a} in [0, maxA], and each shape's baseline.
     */
    public static Set<String> expected(int shapes, int unitUs, int maxA) {
        SleepSpec spec = new SleepSpec();
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < shapes; i++) {
            KernelKey key = new KernelKey("sleep", Map.of("unitUs", unitUs + i), "fp32");
            List<Object> as = java.util.stream.IntStream.rangeClosed(0, maxA).boxed().map(Object.class::cast).toList();
            SearchSpace space = spec.space(key, 1).narrow(Map.of("a", as), List.of());
            // The default point is measured once, as the baseline: its record stands for it.
            long defaultIndex = space.index(spec.defaultConfig(key, 1));
            for (Iterator<Long> it = space.validIndices(); it.hasNext(); ) {
                long index = it.next();
                if (index != defaultIndex) expected.add(key.id() + "/" + index);
            }
            expected.add(key.id() + "/" + Lease.Candidate.BASELINE);
        }
        return expected;
    }

    /** The farm's table is the table the records derive: same entries, same winners, same figures. */
    private static boolean tableMatches(Map<String, Measurement> union, JsonNode table) {
        BestKernelTable derived = BestKernelTable.EMPTY;
        for (Measurement m : union.values()) for (TableEntry e : TableEntry.entries(m, 0)) derived = derived.with(e);
        int entries = 0;
        for (JsonNode e : table.path("entries")) {
            TableEntry served = Protocol.JSON.convertValue(e, TableEntry.class);
            TableEntry expected = derived.lookup(served.deviceClass(), served.kernel()).orElse(null);
            if (expected == null) continue;
            entries++;
            if (!expected.params().equals(served.params()) || expected.stats().medianNs() != served.stats().medianNs()) return false;
        }
        return entries == derived.size();
    }

    private static boolean optimumFound(JsonNode table, int shapes) {
        int found = 0;
        for (JsonNode e : table.path("entries")) {
            if (Protocol.JSON.convertValue(e.path("params"), Map.class).equals(SleepSpec.OPTIMUM)) found++;
        }
        return found >= shapes;
    }
}
