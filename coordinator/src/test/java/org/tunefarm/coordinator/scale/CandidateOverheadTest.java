package org.tunefarm.coordinator.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;

/** The overhead per candidate is read per agent, in the order each agent measured, from the records' clocks. */
class CandidateOverheadTest {

    private static final KernelKey KEY = new KernelKey("sleep", Map.of("unitUs", 100), "f32");

    /** A record of a 2 ms candidate (two samples of 1 ms), started and finished at the given epoch ms. */
    private static Measurement record(String agent, long index, long startedAt, long finishedAt) {
        return record(agent, KEY, index, startedAt, finishedAt);
    }

    private static Measurement record(String agent, KernelKey key, long index, long startedAt, long finishedAt) {
        return new Measurement("s1", key, index, Map.of("a", 1), Status.OK, Stats.of(new double[] {1e6, 1e6}, 1), 0.0, SensorReading.NONE,
                SensorReading.NONE, "", agent, "c", startedAt, finishedAt, 0);
    }

    @Test void gapsAreTakenBetweenEachAgentsOwnConsecutiveCandidates() {
        List<Measurement> rs = new ArrayList<>();
        // Agent a: candidates 10 ms long, 5 ms apart; listed out of order, as a log interleaving agents would.
        rs.add(record("a", 2, 1_015, 1_025));
        rs.add(record("a", 1, 1_000, 1_010));
        rs.add(record("a", 3, 1_030, 1_040));
        // Agent b, at the same time: its gaps are 20 ms, and never measured against a's candidates.
        rs.add(record("b", 4, 1_001, 1_011));
        rs.add(record("b", 5, 1_031, 1_041));

        CandidateOverhead o = CandidateOverhead.of(rs);

        assertEquals(2, o.agents());
        assertEquals(5, o.candidates());
        assertEquals(0.041, o.seconds(), 0.005, "first start to last finish, rounded to 10 ms");
        assertEquals(2.0, o.ownP50Ms(), 1e-9);
        assertEquals(10.0, o.spanP50Ms(), 1e-9);
        assertEquals(5.0, o.gapP50Ms(), 1e-9, "a's two gaps and b's one: 5, 5, 20");
        assertEquals(20.0, o.gapP90Ms(), 1e-9);
        assertEquals(13.0, o.overheadP50Ms(), 1e-9, "start to next start (15 ms) less the 2 ms of samples");
        assertEquals(11.0, o.farmP50Ms(), 1e-9, "and less the two untimed calls of 1 ms");
        assertEquals(11.0, o.farmColdP50Ms(), 1e-9, "every candidate is among its worker's first");
        assertTrue(Double.isNaN(o.farmWarmP50Ms()), "no worker measured more than a few");
    }

    @Test void eachRunOfOneKeyStartsColdAgain() {
        KernelKey other = new KernelKey("sleep", Map.of("unitUs", 200), "f32");
        List<Measurement> rs = new ArrayList<>();
        long t = 0;
        // One worker's run of KEY: its first COLD_CANDIDATES candidates 10 ms apart, then 5 ms apart;
        // then the next key's worker, cold again at 10 ms apart.
        for (int i = 0; i < CandidateOverhead.COLD_CANDIDATES; i++, t += 10) rs.add(record("a", KEY, i, t, t + 2));
        for (int i = 0; i < 20; i++, t += 5) rs.add(record("a", KEY, 100 + i, t, t + 2));
        for (int i = 0; i < 10; i++, t += 10) rs.add(record("a", other, 200 + i, t, t + 2));

        CandidateOverhead o = CandidateOverhead.of(rs);

        // Start to next start less 2 ms of samples and two 1 ms calls.
        assertEquals(6.0, o.farmColdP50Ms(), 1e-9, o.toString());
        assertEquals(1.0, o.farmWarmP50Ms(), 1e-9, "the last of the first key's run is followed by the other key's start: " + o);
    }
}
