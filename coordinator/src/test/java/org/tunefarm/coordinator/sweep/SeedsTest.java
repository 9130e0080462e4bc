package org.tunefarm.coordinator.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.GemmSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Lease;

/**
 * A search lends the family's seeds (its known-good points for the shape) right after the
 * baseline: only those valid on the device (its register file), at most half the budget, each
 * once, and the strategy goes on from there.
 */
class SeedsTest {
    static final KernelKey KEY = new KernelKey("gemm", Map.of("M", 512, "N", 512, "K", 512), "fp32");

    static SweepRun sweep(int budget) {
        return new SweepRun("sw1", SweepSpecReader.read("""
                kernel: gemm
                shapes: [{M: 512, N: 512, K: 512}]
                space: {kernel: [vector]}
                strategy: {name: random, budget: %d, seed: 7}
                measure: {finalists: 0}
                """.formatted(budget)), 1_700_000_000_000L);
    }

    static List<Map<String, Object>> tiles(List<Lease.Candidate> lent) {
        return lent.stream().map(c -> Map.of("rows", c.params().get("microRows"), "vecs", c.params().get("microVecs"))).toList();
    }

    @Test void theSeedsComeRightAfterTheBaselineAndOnlyThoseTheRegisterFileHolds() {
        List<Map<String, Object>> seeds = new GemmSpec().seeds(KEY, 2);
        Search avx512 = sweep(200).searches("zen5-2c-avx512-jdk25-0000", 2, 512, DeviceProfile.registers("amd64", 512), 0).get(0);
        List<Lease.Candidate> lent = avx512.take(1 + seeds.size(), 0);
        assertEquals(Lease.Candidate.BASELINE, lent.get(0).index());
        assertEquals(seeds, lent.subList(1, lent.size()).stream().map(Lease.Candidate::params).toList(), "every seed fits 32 registers, in order");

        Search avx2 = sweep(200).searches("zen3-2c-avx256-jdk25-0000", 2, 256, DeviceProfile.registers("amd64", 256), 0).get(0);
        List<Lease.Candidate> first = avx2.take(1 + seeds.size(), 0);
        List<Lease.Candidate> seeded = first.subList(1, first.size()).stream().filter(c -> seeds.contains(c.params())).toList();
        assertTrue(tiles(seeded).contains(Map.of("rows", 3, "vecs", 3)) && tiles(seeded).contains(Map.of("rows", 4, "vecs", 2)), tiles(seeded).toString());
        for (Lease.Candidate c : seeded) {
            int rows = (Integer) c.params().get("microRows"), vecs = (Integer) c.params().get("microVecs");
            assertTrue(rows * vecs + vecs + rows <= 16, "16 registers cannot hold " + rows + "x" + vecs + " with its broadcasts");
        }
        // The seeds that fit came first; the rest of the lease is the strategy's.
        assertEquals(seeded, first.subList(1, 1 + seeded.size()));
    }

    @Test void seedsTakeAtMostHalfTheBudgetAndAreNeverLentTwice() {
        Search s = sweep(6).searches("zen5-2c-avx512-jdk25-0000", 2, 512, DeviceProfile.registers("amd64", 512), 0).get(0);
        List<Lease.Candidate> lent = s.take(100, 0);
        List<Map<String, Object>> seeds = new GemmSpec().seeds(KEY, 2);
        assertEquals(seeds.subList(0, 3), lent.subList(1, 4).stream().map(Lease.Candidate::params).toList(), "half of 6");
        assertEquals(7, lent.size(), "the baseline (scalar: outside this space) and six points, three seeds and three of the strategy's: " + lent);
        Set<Long> indices = new HashSet<>();
        for (Lease.Candidate c : lent) assertTrue(indices.add(c.index()), "lent twice: " + c);

        // A seed whose lease expired comes back once; one that was recorded never does.
        s.recorded(ok(lent.get(1)));
        s.giveBack(List.of(lent.get(1), lent.get(2)));
        List<Lease.Candidate> again = s.take(100, 0);
        assertEquals(List.of(lent.get(2).index()), again.stream().map(Lease.Candidate::index).toList());
        assertFalse(s.done(0));
    }

    @Test void aScalarOnlyDeviceGetsNoSeeds() {
        SweepRun run = new SweepRun("sw2", SweepSpecReader.read("""
                kernel: gemm
                shapes: [{M: 512, N: 512, K: 512}]
                strategy: {name: random, budget: 10, seed: 7}
                measure: {finalists: 0}
                """), 1_700_000_000_000L);
        List<Lease.Candidate> lent = run.searches("pi-4c-scalar-jdk17-0000", 4, 0, 0, 0).get(0).take(5, 0);
        assertTrue(lent.stream().skip(1).allMatch(c -> "scalar".equals(c.params().get("kernel"))), lent.toString());
    }

    private static Measurement ok(Lease.Candidate c) {
        return new Measurement("sw1", KEY, c.index(), c.params(), Status.OK, Stats.of(new double[] {1e6, 1e6, 1e6}, 1), 0.0, SensorReading.NONE,
                SensorReading.NONE, "", "agent-1", "zen5-2c-avx512-jdk25-0000", 1, 2, 0);
    }
}
