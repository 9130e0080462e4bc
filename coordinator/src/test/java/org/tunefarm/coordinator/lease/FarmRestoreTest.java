package org.tunefarm.coordinator.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.scale.SyntheticHistory;
import org.tunefarm.coordinator.store.RecordLog;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.SweepRun;
import org.tunefarm.measure.Measurement;
import org.tunefarm.table.BestKernelTable;
import org.tunefarm.table.TableEntry;

/**
 * A leader that takes over the state the start's one pass over the log rebuilt is in the state a
 * replay of the whole log gives: the same table, and every sweep and search in the same state.
 */
class FarmRestoreTest {
    @TempDir Path dir;

    private static final long NOW = System.currentTimeMillis();

    @Test
    void theOnePassGivesTheTableAndSweepsAReplayGivesWithTheRecordsAppendedSince() throws IOException {
        SyntheticHistory.write(dir, 14_000, 5, 1); // three sweeps, gemm and sleep, four classes each; the first over and let go
        SweepLog sweeps = new SweepLog(dir.resolve("sweeps.jsonl"));
        FarmRestore restore = new FarmRestore(sweeps, 1_000);
        try (RecordLog log = new RecordLog(dir.resolve("records.jsonl"), restore)) {
            restore.opened(log.openedAt());
            // Appended after the pass (a copy caught up before this coordinator led): the takeover reads them.
            List<Measurement> later = new ArrayList<>();
            log.replay(m -> {
                if (later.size() < 50 && m.round() == 0) later.add(m.inRound(1));
            });
            assertEquals(later, log.append(later));

            FarmRestore.Taken taken = restore.take(sweeps.read(), log, new Dispatcher.Listener() {}).orElseThrow();
            Dispatcher replayed = new Dispatcher(() -> NOW, 1_000, new Dispatcher.Listener() {});
            for (SweepLog.Entry e : sweeps.read()) if (e.spec() != null) replayed.add(new SweepRun(e.id(), e.spec(), e.createdAt()));
            replayed.retireAsKept(sweeps.read());
            BestKernelTable table = BestKernelTable.EMPTY;
            List<Measurement> all = new ArrayList<>();
            log.replay(all::add);
            for (Measurement m : all) {
                replayed.replay(m);
                for (TableEntry e : TableEntry.entries(m, FarmRestore.flops(replayed, m))) table = table.with(e);
            }
            assertEquals(table, taken.table().table());
            assertTrue(table.size() > 20, "a table of many slots: " + table.size());

            resume(taken.dispatcher(), sweeps);
            resume(replayed, sweeps);
            assertEquals(states(replayed), states(taken.dispatcher()));
            assertEquals(3, states(replayed).size());
            assertEquals(List.of(true, false, false), taken.dispatcher().sweeps().stream().map(SweepRun::retired).toList(),
                    "the sweep the log says was let go is restored let go; the running ones rebuild their searches");
        }
    }

    @Test
    void theStateIsTakenOnceAndNotWhenTheSweepLogGainedASweep() throws IOException {
        SyntheticHistory.write(dir, 2_000, 5, SyntheticHistory.RUNNING);
        SweepLog sweeps = new SweepLog(dir.resolve("sweeps.jsonl"));
        FarmRestore first = new FarmRestore(sweeps, 1_000);
        try (RecordLog log = new RecordLog(dir.resolve("records.jsonl"), first)) {
            first.opened(log.openedAt());
            assertTrue(first.take(sweeps.read(), log, new Dispatcher.Listener() {}).isPresent());
            assertFalse(first.take(sweeps.read(), log, new Dispatcher.Listener() {}).isPresent(), "a second term replays");

            FarmRestore second = new FarmRestore(sweeps, 1_000);
            log.replay(second);
            second.opened(log.openedAt());
            List<SweepLog.Entry> gained = new ArrayList<>(sweeps.read());
            SweepLog.Entry some = gained.get(0);
            gained.add(new SweepLog.Entry("not-seen", some.createdAt(), some.spec()));
            assertFalse(second.take(gained, log, new Dispatcher.Listener() {}).isPresent(), "its records were not given to a sweep the pass did not know");

            FarmRestore unopened = new FarmRestore(sweeps, 1_000);
            assertFalse(unopened.take(sweeps.read(), log, new Dispatcher.Listener() {}).isPresent(), "a pass that never ended stands for nothing");
        }
    }

    private static void resume(Dispatcher d, SweepLog sweeps) throws IOException {
        sweeps.read().stream().filter(e -> e.classStart() != null).sorted(Comparator.comparingLong(SweepLog.Entry::createdAt))
                .forEach(e -> d.resume(e.id(), e.classStart().deviceClass(), e.classStart().cores(), e.classStart().vectorBits(), org.tunefarm.device.DeviceProfile.REGISTERS_UNKNOWN, e.createdAt()));
    }

    private static Map<String, SweepRun.Status> states(Dispatcher d) {
        Map<String, SweepRun.Status> out = new TreeMap<>();
        for (SweepRun s : d.sweeps()) out.put(s.id(), s.status(NOW));
        return out;
    }
}
