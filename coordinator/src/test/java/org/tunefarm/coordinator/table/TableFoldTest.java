package org.tunefarm.coordinator.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Lease;
import org.tunefarm.table.BestKernelTable;
import org.tunefarm.table.TableEntry;

/**
 * The fold in place gives the table that merging every record's entries one by one gives, whatever
 * the records bring: losers and winners, ties, records out of time order, baselines, finalists' rounds, energy, sustained times,
 * newer and older implementations, failures; and it reports a slot as changed exactly when its entry changed.
 */
class TableFoldTest {

    @Test void foldsAsMergingEveryEntryDoes() {
        for (long seed = 1; seed <= 20; seed++) {
            Random r = new Random(seed);
            TableFold fold = new TableFold();
            BestKernelTable merged = BestKernelTable.of(List.of());
            int changes = 0;
            for (int i = 0; i < 2_000; i++) {
                Measurement m = record(r, i);
                double flops = r.nextInt(4) == 0 ? 0 : 2e9;
                List<TableEntry> before = merged.entries();
                for (TableEntry e : TableEntry.entries(m, flops)) merged = merged.with(e);
                List<TableEntry> changed = fold.fold(m, flops);
                List<TableEntry> after = merged.entries();
                List<TableEntry> expected = new ArrayList<>(after);
                expected.removeAll(before);
                assertEquals(new java.util.HashSet<>(expected), new java.util.HashSet<>(changed), "record " + i + " of seed " + seed);
                changes += changed.size();
            }
            assertEquals(merged.entries(), fold.table().entries(), "seed " + seed);
            assertTrue(changes > 10, "the records changed the table now and then: " + changes);
        }
    }

    /** A record of one of a few slots, with a median from a small set (so ties happen) and now and then every kind of evidence. */
    private static Measurement record(Random r, int i) {
        KernelKey key = new KernelKey("gemm", Map.of("M", 64 << r.nextInt(2), "N", 64, "K", 64), "fp32");
        double median = 1_000 + 50 * r.nextInt(40);
        Status status = r.nextInt(12) == 0 ? Status.CRASH : r.nextInt(15) == 0 ? Status.THROTTLED : Status.OK;
        Stats stats = new Stats(median * 0.9, median, median * 1.05, 10, 0.01, 10, 1, 0);
        long index = r.nextInt(20) == 0 ? Lease.Candidate.BASELINE : r.nextInt(300);
        int round = r.nextInt(25) == 0 ? 1 + r.nextInt(2) : 0;
        Double sustained = r.nextInt(6) == 0 ? median * (1 + r.nextDouble()) : null;
        Double energy = r.nextInt(8) == 0 ? r.nextDouble() : null;
        int implementation = r.nextInt(40) == 0 ? 2 : r.nextInt(60) == 0 ? 0 : 1;
        // Mostly in time order, as one board reports; now and then older, as a copy from the other half of a partition.
        long at = r.nextInt(5) == 0 ? r.nextInt(1_000 * (i + 1)) : 1_000L * i;
        return new Measurement("sw-" + r.nextInt(3), key, index, Map.of("tile", (int) (index & 15), "order", "ijk"), status, stats, 0.0,
                SensorReading.NONE, new SensorReading(50.0 + r.nextInt(20), 3000.0, null), "", "board-" + r.nextInt(4), "zen5-" + r.nextInt(2),
                at, at + 7, 0, round, null, sustained, energy, implementation);
    }
}
