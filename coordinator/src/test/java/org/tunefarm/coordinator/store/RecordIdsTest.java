package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.measure.Measurement;

/** The log's compact id table never loses an id, never counts one twice, and keeps each one's version. */
class RecordIdsTest {
    @TempDir Path dir;

    /** Ids shaped like the farm's (sweep/class/kernel/index[#round]), near one another as a real log's are. */
    private static String id(int sweep, int index, int round) {
        return String.format("%08x/zen3-2c-avx2-jdk25-5e1f0a01/gemm:M=512,N=512,K=512:fp32/%d%s", 0x5ca1e000 + sweep, index, round == 0 ? "" : "#r" + round);
    }

    @Test
    void aMillionIdsAreEachKeptOnceWithTheirVersionThroughEveryGrowth() {
        RecordIds ids = new RecordIds(0); // from the smallest table: every growth is crossed
        Set<String> truth = new HashSet<>();
        Random r = new Random(7);
        for (int i = 0; i < 1_000_000; i++) {
            String id = id(r.nextInt(300), r.nextInt(20_000), r.nextInt(10) == 0 ? 1 + r.nextInt(2) : 0);
            assertEquals(truth.add(id), ids.add(id, id.hashCode() * 31), id);
        }
        assertEquals(truth.size(), ids.size());
        for (String id : truth) {
            assertTrue(ids.contains(id), id);
            assertEquals(id.hashCode() * 31, ids.version(id), id);
        }
        for (int i = 0; i < 100_000; i++) {
            String absent = id(300 + i % 50, i, 0);
            assertFalse(ids.contains(absent), absent);
            assertNull(ids.version(absent));
        }
    }

    @Test
    void aRepeatKeepsTheFirstVersion() {
        RecordIds ids = new RecordIds(4);
        assertTrue(ids.add("a/b/c/1", 5));
        assertFalse(ids.add("a/b/c/1", 6));
        assertEquals(5, ids.version("a/b/c/1"));
        assertEquals(1, ids.size());
    }

    @Test
    void idsThatDifferInOneCharacterGetFingerprintsThatDifferEverywhere() {
        long[] a = RecordIds.fingerprint(id(1, 12345, 0));
        long[] b = RecordIds.fingerprint(id(1, 12346, 0));
        // A good mix flips about half the bits of each half; a weak one would leave most of them alike.
        assertTrue(Long.bitCount(a[0] ^ b[0]) > 16, "first 64 bits");
        assertTrue(Long.bitCount((a[1] ^ b[1]) >>> 32) > 6, "next 32 bits");
    }

    @Test
    void aReopenedLogKnowsEveryIdAndVersionAndStillRefusesRepeats() throws IOException {
        Path file = dir.resolve("records.jsonl");
        List<Measurement> all = new ArrayList<>();
        for (long i = 0; i < 5_000; i++) all.add(RecordLogTest.m(i));
        try (RecordLog log = new RecordLog(file)) {
            log.append(all);
        }
        List<Measurement> opened = new ArrayList<>();
        try (RecordLog log = new RecordLog(file, opened::add)) {
            assertEquals(all, opened); // the opening pass hands every record on, in order
            assertEquals(all.size(), log.count());
            for (Measurement m : all) assertEquals(RecordStore.version(m), log.storedVersion(m.recordId()));
            assertEquals(List.of(), log.append(all.subList(10, 20)));
            assertEquals(List.of(RecordLogTest.m(9_999)), log.append(List.of(RecordLogTest.m(9_999), all.get(3))));
            assertEquals(all.size() + 1, log.count());
            assertEquals(log.openedAt(), java.nio.file.Files.size(file) - java.nio.file.Files.readAllLines(file).getLast().length() - 1);
        }
    }
}
