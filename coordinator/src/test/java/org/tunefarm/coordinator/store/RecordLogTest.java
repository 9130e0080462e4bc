package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;

class RecordLogTest {
    static final KernelKey KEY = new KernelKey("sleep", Map.of("unitUs", 100), "fp32");

    @TempDir Path dir;

    static Measurement m(long index) {
        return m(index, "");
    }

    static Measurement m(long index, String detail) {
        return new Measurement("sw1", KEY, index, Map.of("a", (int) index % 16, "b", 3, "mode", "fast"), Status.OK,
                Stats.of(new double[] {100 + index, 101 + index, 99 + index}, 8), 0.0, SensorReading.NONE,
                new SensorReading(45.5, null, null), detail, "agent-1", "zen4-8c-jdk25", 1000 + index, 1010 + index, (int) index);
    }

    private Path file() {
        return dir.resolve("data/records.jsonl");
    }

    private static List<Measurement> replay(RecordLog log) throws IOException {
        List<Measurement> out = new ArrayList<>();
        log.replay(out::add);
        return out;
    }

    @Test
    void appendedRecordsSurviveCloseAndReopen() throws IOException {
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(List.of(m(1), m(2)), log.append(List.of(m(1), m(2))));
            assertEquals(List.of(m(3)), log.append(List.of(m(3))));
        }
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(3, log.count());
            assertTrue(log.contains(m(2).recordId()));
            assertEquals(List.of(m(1), m(2), m(3)), replay(log));
        }
    }

    @Test
    void replayReturnsAppendOrder() throws IOException {
        try (RecordLog log = new RecordLog(file())) {
            for (long i : new long[] {7, 3, 11, 0, 5}) log.append(List.of(m(i)));
            log.append(List.of(m(2), m(9), m(1)));
            assertEquals(List.of(m(7), m(3), m(11), m(0), m(5), m(2), m(9), m(1)), replay(log));
        }
    }

    @Test
    void theSameMeasurementIsStoredOnce() throws IOException {
        try (RecordLog log = new RecordLog(file())) {
            log.append(List.of(m(1)));
            assertEquals(List.of(), log.append(List.of(m(1))));
            assertEquals(List.of(m(2)), log.append(List.of(m(1), m(2))));
            assertEquals(2, log.count());
        }
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(List.of(), log.append(List.of(m(2), m(1))), "ids must be known after reopen");
            assertEquals(List.of(m(1), m(2)), replay(log));
        }
        assertEquals(2, Files.readAllLines(file()).size());
    }

    @Test
    void theSameMeasurementTwiceInOneBatchIsStoredOnce() throws IOException {
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(List.of(m(4), m(5)), log.append(List.of(m(4), m(4), m(5), m(4))));
            assertEquals(2, log.count());
            assertEquals(List.of(m(4), m(5)), replay(log));
        }
    }

    @Test
    void aTornLastLineIsDroppedOnReopenAndLaterAppendsAreReadable() throws IOException {
        try (RecordLog log = new RecordLog(file())) {
            log.append(List.of(m(1), m(2)));
        }
        String torn = Protocol.write(m(3));
        Files.writeString(file(), torn.substring(0, torn.length() / 2), StandardOpenOption.APPEND);
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(2, log.count());
            assertFalse(log.contains(m(3).recordId()));
            assertEquals(List.of(m(3), m(4)), log.append(List.of(m(3), m(4))), "the torn record was never acknowledged");
            assertEquals(List.of(m(1), m(2), m(3), m(4)), replay(log));
        }
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(List.of(m(1), m(2), m(3), m(4)), replay(log));
        }
    }

    @Test
    void aTornLastLineCutInsideAMultiByteCharacterIsDropped() throws IOException {
        try (RecordLog log = new RecordLog(file())) {
            log.append(List.of(m(1, "slow at 85 °C")));
        }
        byte[] whole = (Protocol.write(m(2, "°°°°")) + "\n").getBytes(StandardCharsets.UTF_8);
        int cut = indexOf(whole, "°".getBytes(StandardCharsets.UTF_8)) + 1; // between the two bytes of °
        Files.write(file(), Arrays.copyOf(whole, cut), StandardOpenOption.APPEND);
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(1, log.count());
            log.append(List.of(m(2, "°°°°")));
            assertEquals(List.of(m(1, "slow at 85 °C"), m(2, "°°°°")), replay(log));
        }
    }

    @Test
    void aTornLineThatHappensToBeValidJsonIsStillDropped() throws IOException {
        try (RecordLog log = new RecordLog(file())) {
            log.append(List.of(m(1)));
        }
        Files.writeString(file(), Protocol.write(m(2)), StandardOpenOption.APPEND); // the newline never made it
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(1, log.count());
            log.append(List.of(m(3)));
            assertEquals(List.of(m(1), m(3)), replay(log));
        }
    }

    @Test
    void anEmptyBatchWritesNothing() throws IOException {
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(List.of(), log.append(List.of()));
            assertEquals(0, log.count());
            assertEquals(List.of(), replay(log));
        }
        assertEquals(0, Files.size(file()));
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) if (haystack[i + j] != needle[j]) continue outer;
            return i;
        }
        throw new AssertionError("not found");
    }
}
