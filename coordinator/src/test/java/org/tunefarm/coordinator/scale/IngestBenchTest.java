package org.tunefarm.coordinator.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.protocol.Protocol;

/**
 * {@code bench ingest --quick} end to end: agents report at once to a leader with a real replica
 * for a few seconds; every acknowledged record is in both logs, each agent's in order, and the
 * figures the bench prints are consistent with what was acknowledged.
 */
class IngestBenchTest {

    @TempDir Path dir;

    @Test void manyAgentsReportAndEveryAcknowledgedRecordIsInBothLogsInOrder() throws Exception {
        IngestRun.Outcome o = new IngestRun(new IngestRun.Settings(16, 4, 3, dir), System.err).run();
        System.out.println("bench ingest --quick: " + Protocol.write(o));

        assertTrue(o.durableOnBoth(), o.checkFailure());
        assertTrue(o.records() > 0 && o.reports() > 0, o.toString());
        assertEquals(o.reports() * 4, o.records(), "every acknowledged report carried its 4 records");
        assertEquals(0, o.failedReports(), o.toString());
        assertEquals(o.records(), RestartRun.lines(dir.resolve("coordinator-0/records.jsonl")));
        assertEquals(o.records(), RestartRun.lines(dir.resolve("coordinator-1/records.jsonl")));
        assertTrue(o.leaderFsyncs() > 0 && o.replicaFsyncs() > 0, "both disks were forced: " + o);
        assertTrue(o.ackP50Ms() > 0 && o.ackP99Ms() >= o.ackP50Ms(), o.toString());
    }
}
