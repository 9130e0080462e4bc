package org.tunefarm.coordinator.partition;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tunefarm.coordinator.chaos.ChaosAudit;
import org.tunefarm.coordinator.replica.VersionedRecords;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * Checks a partition scenario from the coordinators' record logs: nothing lost (every candidate of
 * the sweep recorded somewhere), nothing stored twice in any log, every log holding every record,
 * and how many candidates both sides measured while apart: a log keeps the first measurement of a
 * candidate it gets, so each side's logs keep that side's, and the candidates whose measurement
 * differs between the sides' logs are those measured on both (until the halves merged, which
 * happens some time after the link is back).
 */
public final class PartitionAudit {

    /** One scenario's line in the bench's JSON array. */
    public record Outcome(int quorum, int coordinators, int candidates, int recorded, int lost, int duplicatesStored, int measuredTwice,
                          int measuredTwiceOnHealth, int dispatchingDuringCut, int leadersAfterHeal, int replicaGaps, int cutSeconds, long seconds) {
        /** What the scenario must show: nothing lost or kept twice, one leader, full replicas, and the quorum's fence. */
        public boolean passed() {
            boolean fenced = quorum < 2 || dispatchingDuringCut == 1;
            return lost == 0 && duplicatesStored == 0 && replicaGaps == 0 && leadersAfterHeal == 1 && fenced;
        }
    }

    /** What one side's logs held for the sweep: record id to which measurement it is. */
    public record Side(Map<String, Integer> versions) {}

    private PartitionAudit() {}

    static Set<String> expected(PartitionRun.Settings s) {
        return ChaosAudit.expected(s.shapes(), s.unitUs(), s.maxA());
    }

    static Side side(String sweep, List<Path> dataDirs) throws IOException {
        Map<String, Integer> versions = new HashMap<>();
        for (Path d : dataDirs) for (Measurement m : ChaosAudit.records(sweep, d)) versions.putIfAbsent(m.recordId(), VersionedRecords.version(m));
        return new Side(versions);
    }

    static Outcome audit(PartitionRun.Settings s, String sweep, List<Side> sides, List<Path> dataDirs, int dispatching, int leaders,
                         int measuredTwiceOnHealth, long seconds) throws IOException {
        Set<String> expected = expected(s);
        Set<String> firstRounds = new HashSet<>();
        int duplicates = 0;
        for (Path d : dataDirs) {
            Set<String> ids = new HashSet<>();
            for (Measurement m : ChaosAudit.records(sweep, d)) {
                if (!ids.add(m.recordId())) duplicates++;
                if (m.round() == 0) firstRounds.add(m.key().id() + "/" + m.index());
            }
        }
        int lost = 0;
        for (String id : expected) if (!firstRounds.contains(id)) lost++;
        int twice = 0;
        Map<String, Integer> one = sides.get(0).versions();
        for (Map.Entry<String, Integer> e : sides.get(1).versions().entrySet()) {
            Integer other = one.get(e.getKey());
            if (other != null && !other.equals(e.getValue())) twice++;
        }
        return new Outcome(s.quorum(), s.coordinators(), expected.size(), firstRounds.size(), lost, duplicates, twice, measuredTwiceOnHealth,
                dispatching, leaders, ChaosAudit.replicaGaps(sweep, dataDirs), s.cutSeconds(), seconds);
    }
}
