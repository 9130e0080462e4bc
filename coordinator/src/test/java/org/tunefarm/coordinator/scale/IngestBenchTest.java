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
        assertEquals(null, o.copyComparison(), "compared only when asked");
    }

    @Test void aComparedRunAlternatesTheCopyFormatsAndBothKeepTheLogsExact() throws Exception {
        Path d = dir.resolve("compared");
        IngestRun.Outcome o = new IngestRun(new IngestRun.Settings(16, 4, 4, d, true), System.err).run();
        System.out.println("bench ingest --compare-copy: " + Protocol.write(o));

        // Records copied as objects (the older coordinators' format) land in the replica's log
        // as exactly as records copied as text.
        assertTrue(o.durableOnBoth(), o.checkFailure());
        assertEquals(o.records(), RestartRun.lines(d.resolve("coordinator-1/records.jsonl")));
        IngestRun.CopyComparison c = o.copyComparison();
        assertEquals(2 * IngestRun.COMPARED_PAIRS, c.phases().size(), c.toString());
        for (int i = 0; i < c.phases().size(); i++) {
            IngestRun.Phase p = c.phases().get(i);
            assertEquals(i % 2 == 0 ? "text" : "objects", p.copyFormat(), c.toString());
            assertTrue(p.seconds() > 0 && p.recordsPerSecond() > 0, "every stretch acknowledged records: " + c);
        }
        assertTrue(c.textOverObjectsMin() > 0 && c.textOverObjectsMin() <= c.textOverObjects() && c.textOverObjects() <= c.textOverObjectsMax(), c.toString());
    }
}
