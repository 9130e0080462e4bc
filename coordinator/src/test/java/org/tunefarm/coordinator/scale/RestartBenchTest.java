package org.tunefarm.coordinator.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.protocol.Protocol;

/**
 * {@code bench restart --quick} end to end: 20,000 records written as a coordinator keeps them, a
 * real coordinator process leading on them with the table they derive, and a second one with an
 * empty disk copying every record.
 */
class RestartBenchTest {

    @TempDir Path dir;

    @Test void aCoordinatorStartsOnALongHistoryWithItsTableAndAnEmptyOneCatchesUp() throws Exception {
        RestartRun.Outcome o = new RestartRun(new RestartRun.Settings(20_000, dir, "1g", Duration.ofMinutes(2), 1, true), System.err).run();
        System.out.println("bench restart --quick: " + Protocol.write(o));

        assertEquals(20_000, o.records());
        assertEquals(20_000, RestartRun.lines(dir.resolve("coordinator-0/records.jsonl")));
        assertTrue(o.bytesOnDisk() > 20_000L * 300, "records of a realistic size: " + o.bytesOnDisk());
        assertTrue(o.tableEntries() > 10, "several sweeps, classes and shapes: " + o.tableEntries());
        assertEquals(4, o.sweeps(), o.toString());
        assertEquals(2, o.retiredSweeps(), "all but the last one let go before the last began: " + o);
        assertTrue(o.tableEqual(), "the served table is the one the records derive");
        assertTrue(o.openSeconds() > 0 && o.heapMb() > 0, o.toString());
        // The process's CPU time counts its JVM's start and every thread: some, and at most every core's share of its wall time.
        assertTrue(o.openCpuSeconds() > 0 && o.openCpuSeconds() < o.openSeconds() * Runtime.getRuntime().availableProcessors() + 1, o.toString());
        assertNotNull(o.catchUpSeconds(), "caught up: " + o.catchUpFailure());
        assertNotNull(o.catchUpCpuSeconds(), o.toString());
        assertEquals(20_000, o.catchUpRecords());
        assertEquals(20_000, RestartRun.lines(dir.resolve("coordinator-1/records.jsonl")));
    }
}
