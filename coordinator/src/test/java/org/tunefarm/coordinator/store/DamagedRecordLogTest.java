package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tunefarm.coordinator.store.RecordLogTest.m;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * A damaged line of the record log costs that line only: it goes byte for byte to the quarantine
 * beside the log, every record after it is kept, and the next open does not quarantine it again.
 */
class DamagedRecordLogTest {
    static final int RECORDS = 5;

    @TempDir Path dir;

    Path file() {
        return dir.resolve("records.jsonl");
    }

    /** Writes records 0..4 through the log, so the file is exactly what a coordinator writes. */
    List<byte[]> writeFive() throws IOException {
        List<Measurement> ms = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) ms.add(m(i));
        try (RecordLog log = new RecordLog(file())) {
            log.append(ms);
        }
        List<byte[]> lines = new ArrayList<>();
        for (Measurement x : ms) lines.add(Protocol.write(x).getBytes(StandardCharsets.UTF_8));
        return lines;
    }

    /** Replaces line {@code n} of the file with {@code damaged} (without its newline). */
    void replaceLine(List<byte[]> lines, int n, byte[] damaged) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < lines.size(); i++) {
            out.write(i == n ? damaged : lines.get(i));
            out.write('\n');
        }
        Files.write(file(), out.toByteArray());
    }

    static long offsetOf(List<byte[]> lines, int n) {
        long at = 0;
        for (int i = 0; i < n; i++) at += lines.get(i).length + 1;
        return at;
    }

    /** The line with one byte flipped where it breaks the JSON: the quote opening the first field name. */
    static byte[] flipped(byte[] line) {
        byte[] d = line.clone();
        d[1] ^= 0x04; // '"' (0x22) becomes '&'
        return d;
    }

    static List<Measurement> replay(RecordLog log) throws IOException {
        List<Measurement> out = new ArrayList<>();
        log.replay(out::add);
        return out;
    }

    /** Damages line n, opens the log twice; asserts what survived and what the quarantine holds. */
    void assertOnlyLineLost(int n, byte[] damaged, String reason) throws IOException {
        List<byte[]> lines = writeFive();
        replaceLine(lines, n, damaged);
        List<Measurement> expected = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) if (i != n) expected.add(m(i));
        for (int open = 0; open < 2; open++) {
            try (RecordLog log = new RecordLog(file())) {
                assertEquals(RECORDS - 1, log.count(), "every record but the damaged one survives");
                assertEquals(expected, replay(log));
                assertFalse(log.contains(m(n).recordId()));
                List<Quarantine.Entry> q = log.quarantine().entries();
                assertEquals(1, q.size(), "quarantined once, not again on the next open");
                assertArrayEquals(damaged, q.get(0).bytes(), "the quarantine keeps the exact bytes");
                assertEquals(offsetOf(lines, n), q.get(0).offset());
                assertTrue(q.get(0).reason().contains(reason), q.get(0).reason());
            }
        }
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(List.of(m(n)), log.append(List.of(m(n))), "the lost record can be stored again");
            assertEquals(RECORDS, log.count());
        }
        assertEquals(RECORDS, Files.readAllLines(file()).size(), "the live log holds only readable lines");
    }

    @Test void aFlippedByteInTheMiddleCostsOnlyThatRecord() throws IOException {
        assertOnlyLineLost(2, flipped(Protocol.write(m(2)).getBytes(StandardCharsets.UTF_8)), "not a readable line");
    }

    @Test void aFlippedByteInTheFirstLineCostsOnlyThatRecord() throws IOException {
        assertOnlyLineLost(0, flipped(Protocol.write(m(0)).getBytes(StandardCharsets.UTF_8)), "not a readable line");
    }

    @Test void aFlippedByteInACompleteLastLineIsQuarantinedNotCut() throws IOException {
        assertOnlyLineLost(RECORDS - 1, flipped(Protocol.write(m(RECORDS - 1)).getBytes(StandardCharsets.UTF_8)), "not a readable line");
    }

    @Test void invalidUtf8CostsOnlyThatRecord() throws IOException {
        List<byte[]> lines = writeFive();
        // The record's own bytes with 0xC3 0x28 in its detail: a lead byte followed by '(', not a character.
        String text = Protocol.write(m(3));
        byte[] bad = text.replace("\"detail\":\"\"", "\"detail\":\"__\"").getBytes(StandardCharsets.UTF_8);
        int at = indexOf(bad, "__".getBytes(StandardCharsets.UTF_8));
        bad[at] = (byte) 0xC3;
        bad[at + 1] = (byte) 0x28;
        replaceLine(lines, 3, bad);
        List<Measurement> expected = List.of(m(0), m(1), m(2), m(4));
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(expected, replay(log));
            assertEquals(1, log.quarantine().count());
            assertArrayEquals(bad, log.quarantine().entries().get(0).bytes());
            assertEquals("invalid UTF-8", log.quarantine().entries().get(0).reason());
        }
    }

    @Test void aGarbledNewlineJoinsTwoLinesAndCostsOnlyThoseTwo() throws IOException {
        List<byte[]> lines = writeFive();
        byte[] whole = Files.readAllBytes(file());
        int newlineAfterFirst = lines.get(0).length;
        whole[newlineAfterFirst] = 'x';
        Files.write(file(), whole);
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(List.of(m(2), m(3), m(4)), replay(log));
            assertEquals(1, log.quarantine().count());
            assertArrayEquals(Arrays.copyOfRange(whole, 0, lines.get(0).length + 1 + lines.get(1).length), log.quarantine().entries().get(0).bytes());
        }
    }

    @Test void aStartThatDiedBeforeTheRewriteDoesNotQuarantineTwice() throws IOException {
        List<byte[]> lines = writeFive();
        byte[] damaged = flipped(lines.get(1));
        replaceLine(lines, 1, damaged);
        byte[] beforeRewrite = Files.readAllBytes(file());
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(4, log.count());
        }
        // As if the process died after the quarantine was fsynced and before the rename.
        Files.write(file(), beforeRewrite);
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(4, log.count());
            assertEquals(1, log.quarantine().count());
        }
    }

    @Test void aRecordWithAStatusOfANewerVersionIsKeptAsWritten() throws IOException {
        List<byte[]> lines = writeFive();
        byte[] newer = new String(lines.get(2), StandardCharsets.UTF_8).replace("\"status\":\"OK\"", "\"status\":\"POWER_CAPPED\"")
                .replaceFirst("\\{", "{\"fromTheFuture\":{\"x\":[1,2]},").getBytes(StandardCharsets.UTF_8);
        replaceLine(lines, 2, newer);
        List<Measurement> read;
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(RECORDS, log.count(), "nothing is lost to an unknown status or field");
            assertEquals(0, log.quarantine().count());
            read = replay(log);
        }
        Measurement m2 = read.get(2);
        assertEquals("POWER_CAPPED", m2.status().name());
        assertFalse(m2.status().known());
        // Copied to another coordinator's log, it keeps its status.
        try (RecordLog copy = new RecordLog(dir.resolve("replica/records.jsonl"))) {
            assertEquals(RECORDS, copy.append(read).size());
            assertEquals("POWER_CAPPED", replay(copy).get(2).status().name());
        }
        assertTrue(Files.readString(dir.resolve("replica/records.jsonl")).contains("\"status\":\"POWER_CAPPED\""));
    }

    @Test void aTornLastLineIsCutAndNotQuarantined() throws IOException {
        List<byte[]> lines = writeFive();
        byte[] whole = Files.readAllBytes(file());
        Files.write(file(), Arrays.copyOf(whole, whole.length - 1 - lines.get(4).length / 2));
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(List.of(m(0), m(1), m(2), m(3)), replay(log));
            assertEquals(0, log.quarantine().count());
            assertFalse(Files.exists(log.quarantine().file()));
        }
    }

    static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) if (haystack[i + j] != needle[j]) continue outer;
            return i;
        }
        throw new AssertionError("not found");
    }
}
