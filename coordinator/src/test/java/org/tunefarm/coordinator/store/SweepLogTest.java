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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.coordinator.sweep.SweepControl.Action;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.device.DeviceProfile;
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
        log.appendIfAbsent(SweepLog.Entry.classStarted("a", "zen3-2c", null, 2, 256, 5_000));
        log.appendIfAbsent(SweepLog.Entry.classStarted("a", "zen3-2c", null, 2, 256, 6_000)); // a copy arriving again
        log.appendIfAbsent(SweepLog.Entry.classStarted("a", "a76-4c", null, 4, 128, 7_000));
        log.appendIfAbsent(sweep("a"));
        List<SweepLog.Entry> read = new SweepLog(file()).read();
        assertEquals(3, read.size());
        assertNull(read.get(0).classStart());
        assertEquals(new SweepLog.ClassStart("zen3-2c", 2, 256, null), read.get(1).classStart());
        assertEquals(5_000, read.get(1).createdAt());
        assertEquals(new SweepLog.ClassStart("a76-4c", 4, 128, null), read.get(2).classStart());
    }

    /** A class start keeps the class's profile, so a restarted leader can describe the class with no agent of it online. */
    @Test void aClassStartKeepsTheClassProfile() throws IOException {
        DeviceProfile p = new DeviceProfile("AMD EPYC 9B14", "Zen 4", 2, 2, 32, 1024, 32768, 16, "Linux", "amd64", "Eclipse Adoptium", 25, 512,
                List.of(), Map.of("cooling", "fan"));
        SweepLog log = new SweepLog(file());
        log.appendIfAbsent(SweepLog.Entry.classStarted("a", p.deviceClass(), p, 2, 512, 5_000));
        // A line edited by hand whose profile is another class's: the start stands, the profile is not believed.
        log.appendIfAbsent(SweepLog.Entry.classStarted("a", "other-class", p, 2, 512, 6_000));
        List<SweepLog.Entry> read = new SweepLog(file()).read();
        assertEquals(p, read.get(0).classStart().profile());
        assertEquals(java.util.Optional.of(p), read.get(0).classStart().knownProfile());
        assertEquals(java.util.Optional.empty(), read.get(1).classStart().knownProfile());
    }

    /** A class start written before profiles were kept still reads, with no profile, and is not quarantined. */
    @Test void aClassStartWithoutProfileStillReads() throws IOException {
        Files.writeString(file(), Protocol.write(sweep("a")) + "\n"
                + "{\"id\":\"a\",\"createdAt\":5000,\"spec\":null,\"classStart\":{\"deviceClass\":\"zen3-2c\",\"cores\":2,\"vectorBits\":256}}\n");
        SweepLog log = new SweepLog(file());
        assertEquals(0, log.quarantine().count());
        assertEquals(new SweepLog.ClassStart("zen3-2c", 2, 256, null), log.read().get(1).classStart());
        assertEquals(java.util.Optional.empty(), log.read().get(1).classStart().knownProfile());
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

    /** A restored sweep tunes for what it was submitted with, and one logged before objectives existed for latency. */
    @Test void aRestoredSweepKeepsItsObjective() throws IOException {
        var spec = SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\nobjective: sustained\nsustainedSeconds: 12\n"
                + "measure: {cooldownTimeoutMs: 9000}\n");
        new SweepLog(file()).append(new SweepLog.Entry("s1", 10, spec));
        SweepSpec back = new SweepLog(file()).read().get(0).spec();
        assertEquals(spec, back);
        assertEquals(org.tunefarm.measure.Objective.SUSTAINED, back.objective());
        assertEquals(12.0, back.sustainedSeconds());
        assertEquals(9000L, back.fidelity().cooldownTimeoutMs());

        String old = Protocol.write(sweep("s2")).replaceAll(",\"objective\":\"latency\",\"sustainedSeconds\":0\\.0", "")
                .replaceAll(",\"cooldownTimeoutMs\":120000", "");
        org.junit.jupiter.api.Assertions.assertFalse(old.contains("objective") || old.contains("cooldownTimeoutMs"), old);
        Files.writeString(file(), old + "\n", StandardOpenOption.APPEND);
        SweepSpec older = new SweepLog(file()).read().get(1).spec();
        assertEquals(org.tunefarm.measure.Objective.LATENCY, older.objective());
        assertEquals(0.0, older.sustainedSeconds());
        assertEquals(org.tunefarm.measure.Fidelity.DEFAULT_COOLDOWN_TIMEOUT_MS, older.fidelity().cooldownTimeoutMs());
    }
}
