package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.coordinator.sweep.SweepControl.Action;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.protocol.Protocol;

class SweepLogTest {
    static final SweepSpec SPEC = SweepSpecReader.read("""
            kernel: sleep
            shapes: [{unitUs: 100}]
            strategy: {name: random, budget: 4}
            """);

    @TempDir Path dir;

    Path file() {
        return dir.resolve("sweeps.jsonl");
    }

    static SweepLog.Entry sweep(String id) {
        return new SweepLog.Entry(id, 1_700_000_000_000L, SPEC);
    }

    static List<String> ids(SweepLog log) throws IOException {
        return log.read().stream().map(SweepLog.Entry::id).toList();
    }

    @Test void aTornLastLineIsCutBeforeTheNextAppend() throws IOException {
        SweepLog log = new SweepLog(file());
        log.append(sweep("a"));
        String torn = Protocol.write(sweep("b"));
        Files.writeString(file(), torn.substring(0, torn.length() / 2), StandardOpenOption.APPEND); // a write that died half-way
        log.append(sweep("c"));
        assertEquals(List.of("a", "c"), ids(log), "c is not glued onto the torn line");
        assertEquals(List.of("a", "c"), ids(new SweepLog(file())));
        assertEquals(0, new SweepLog(file()).quarantine().count());
    }

    @Test void invalidUtf8DoesNotStopTheLogFromOpeningAndCostsOnlyItsLine() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write((Protocol.write(sweep("a")) + "\n").getBytes(StandardCharsets.UTF_8));
        byte[] bad = Protocol.write(sweep("b")).getBytes(StandardCharsets.UTF_8);
        bad[10] = (byte) 0xFF;
        out.write(bad);
        out.write('\n');
        out.write((Protocol.write(sweep("c")) + "\n").getBytes(StandardCharsets.UTF_8));
        Files.write(file(), out.toByteArray());
        SweepLog log = new SweepLog(file());
        assertEquals(List.of("a", "c"), ids(log));
        assertEquals(1, log.quarantine().count());
        assertArrayEquals(bad, log.quarantine().entries().get(0).bytes());
        assertEquals(1, new SweepLog(file()).quarantine().count(), "not quarantined twice");
    }

    @Test void classStartsAreKeptOncePerSweepAndClass() throws IOException {
        SweepLog log = new SweepLog(file());
        log.appendIfAbsent(sweep("a"));
        log.appendIfAbsent(SweepLog.Entry.classStarted("a", "zen3-2c", 2, 256, 5_000));
        log.appendIfAbsent(SweepLog.Entry.classStarted("a", "zen3-2c", 2, 256, 6_000)); // a copy arriving again
        log.appendIfAbsent(SweepLog.Entry.classStarted("a", "a76-4c", 4, 128, 7_000));
        log.appendIfAbsent(sweep("a"));
        List<SweepLog.Entry> read = new SweepLog(file()).read();
        assertEquals(3, read.size());
        assertNull(read.get(0).classStart());
        assertEquals(new SweepLog.ClassStart("zen3-2c", 2, 256), read.get(1).classStart());
        assertEquals(5_000, read.get(1).createdAt());
        assertEquals(new SweepLog.ClassStart("a76-4c", 4, 128), read.get(2).classStart());
    }

    /** Sweeps and the operators' changes to them share one file and come back apart, in order, once each. */
    @Test void changesAreKeptBesideTheirSweepOnceEachAndInTheLeadersOrder() throws Exception {
        SweepLog log = new SweepLog(dir.resolve("sweeps.jsonl"));
        var spec = SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\npriority: 3\n");
        log.append(new SweepLog.Entry("s1", 10, spec));
        SweepControl pause = new SweepControl("s1", 20, Action.PAUSE, 0);
        SweepControl resume = new SweepControl("s1", 30, Action.RESUME, 0);
        SweepControl priority = new SweepControl("s1", 25, Action.PRIORITY, 9);
        log.appendIfAbsent(pause);
        log.appendIfAbsent(resume);
        log.appendIfAbsent(pause); // a copy arriving twice
        log.appendIfAbsent(priority); // copied late from another coordinator: ordered by its time
        Files.writeString(dir.resolve("sweeps.jsonl"), "{\"control\": {\"sweep", StandardOpenOption.APPEND); // torn last line

        SweepLog again = new SweepLog(dir.resolve("sweeps.jsonl"));
        assertEquals(1, again.read().size());
        assertEquals(3, again.read().get(0).spec().priority());
        assertEquals(List.of(pause, priority, resume), again.controls());
        assertEquals(0, again.quarantine().count(), "change lines are not damage");
    }
}
