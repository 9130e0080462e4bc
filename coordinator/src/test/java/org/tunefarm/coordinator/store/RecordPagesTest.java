package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.measure.Measurement;

/** A peer copies a log by byte offset: each page reads only what follows the previous one. */
class RecordPagesTest {
    @TempDir Path dir;

    @Test
    void pagesByOffsetCoverTheLogOnceInAppendOrder() throws IOException {
        List<Measurement> all = new ArrayList<>();
        for (long i = 0; i < 4500; i++) all.add(RecordLogTest.m(i, i % 7 == 0 ? "ünïcode détail" : ""));
        try (RecordLog log = new RecordLog(dir.resolve("records.jsonl"))) {
            log.append(all);
            List<Measurement> read = new ArrayList<>();
            long from = 0;
            int pages = 0;
            RecordPage page;
            do {
                page = log.read(from, 2000);
                read.addAll(page.records());
                from = page.next();
                pages++;
            } while (from < page.end());
            assertEquals(3, pages);
            assertEquals(all, read);
            RecordPage after = log.read(from, 2000);
            assertTrue(after.records().isEmpty());
            assertEquals(after.end(), after.next());

            // Records appended later are read from where the last page ended, and only they.
            log.append(List.of(RecordLogTest.m(9001), RecordLogTest.m(9002)));
            RecordPage more = log.read(from, 2000);
            assertEquals(List.of(RecordLogTest.m(9001), RecordLogTest.m(9002)), more.records());
            assertEquals(more.end(), more.next());
        }
    }

    @Test
    void aPageDoesNotReadTheLogBeforeItsOffset() throws IOException {
        Path file = dir.resolve("records.jsonl");
        try (RecordLog log = new RecordLog(file)) {
            log.append(List.of(RecordLogTest.m(1), RecordLogTest.m(2)));
            long second = log.read(0, 1).next();
            log.append(List.of(RecordLogTest.m(3)));
            // Garble the first record's bytes: a reader that scanned from the start would trip on them.
            try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
                raw.seek(2);
                raw.write("\u0000\u0000garbage".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            assertEquals(List.of(RecordLogTest.m(2), RecordLogTest.m(3)), log.read(second, 10).records());
        }
    }
}
