package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * A record's identity read from its line's tokens is the one the bound record gives, and a line
 * that does not state it plainly gets none (it is then read whole); a copy leaves out only the
 * lines whose very measurement the log holds.
 */
class LineIdentityTest {
    @TempDir Path dir;

    private static List<Measurement> records() {
        List<Measurement> out = new ArrayList<>();
        for (long i = 0; i < 200; i++) {
            Measurement m = RecordLogTest.m(i, i % 7 == 0 ? "Grüße \"quoted\" {braces} /index 9/" : "");
            if (i % 3 == 0) m = m.inRound((int) (i % 4)); // rounds 0 to 3
            if (i % 5 == 0) m = m.ofImplementation(2);
            out.add(m);
        }
        // A shape of several dimensions, written in another order than the key sorts them.
        out.add(new Measurement("sw2", new KernelKey("gemm", Map.of("N", 64, "M", 1, "K", 4096), "fp32"), 7, Map.of("t", 1), RecordLogTest.m(0).status(),
                RecordLogTest.m(0).stats(), null, null, null, "", "board-3", "a76-4c", 5, 9, 0, 2));
        return out;
    }

    @Test void theIdentityOfALineIsTheRecordsOwn() {
        for (Measurement m : records()) {
            LineIdentity id = LineIdentity.peek(Protocol.write(m));
            assertEquals(new LineIdentity(m.recordId(), RecordIds.version(m)), id, Protocol.write(m));
        }
    }

    @Test void aLineThatDoesNotStateItPlainlyHasNone() {
        String line = Protocol.write(RecordLogTest.m(4));
        assertNull(LineIdentity.peek(line.replace("\"index\":4", "\"index\":4.0")), "an index that is not an integer");
        assertNull(LineIdentity.peek(line.replace("\"index\":4,", "")), "no index");
        assertNull(LineIdentity.peek(line.replace("\"index\":4", "\"index\":4,\"index\":5")), "an index given twice");
        assertNull(LineIdentity.peek(line.replace("\"round\":0", "\"round\":null")), "a round that is not a number");
        assertNull(LineIdentity.peek(line.replace("\"sweepId\":\"sw1\"", "\"sweepId\":{\"sweepId\":\"sw1\"}")), "a sweep id that is an object");
        assertNull(LineIdentity.peek(line.substring(0, line.length() / 2)), "a cut line");
        assertNull(LineIdentity.peek("[" + line + "]"));
        assertNull(LineIdentity.peek(line.replace("\"unitUs\":100", "\"unitUs\":1e2")), "a shape size that is not an integer: " + line);
    }

    @Test void aCopyLeavesOutOnlyTheMeasurementsTheLogHolds() throws Exception {
        List<Measurement> all = records();
        try (RecordLog log = new RecordLog(dir.resolve("records.jsonl"))) {
            log.append(all.subList(0, 100));
            List<String> lines = new ArrayList<>();
            for (Measurement m : all) lines.add(Protocol.write(m));
            Measurement other = all.get(10).ofImplementation(0);
            Measurement remeasured = new Measurement(other.sweepId(), other.key(), other.index(), other.params(), other.status(), other.stats(),
                    other.maxError(), other.before(), other.after(), other.detail(), "agent-2", other.deviceClass(), other.startedAt(), other.finishedAt(),
                    other.order(), other.round());
            lines.add(Protocol.write(remeasured)); // the same candidate measured by another agent: read, so it is noticed
            lines.add(Protocol.write(all.get(20)).replace("\"detail\":\"\"", "\"detail\":\"x\"")); // the same measurement: left out

            RecordLines read = RecordLines.parseUnheld(lines, log);
            List<Measurement> expected = new ArrayList<>(all.subList(100, all.size()));
            expected.add(remeasured);
            assertEquals(expected, read.records());
            assertEquals(expected.size(), read.lines().size());
        }
    }
}
