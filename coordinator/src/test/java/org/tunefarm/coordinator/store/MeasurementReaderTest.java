package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.scale.SyntheticHistory;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.measure.Thermal;
import org.tunefarm.protocol.Protocol;

/** The streaming reader of record lines agrees with databind, and leaves to it every line not in canonical form. */
class MeasurementReaderTest {
    private static final ObjectReader DATABIND = Protocol.JSON.readerFor(Measurement.class).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @Test
    void readsEveryWrittenFormAsDatabindDoes() throws IOException {
        Random r = new Random(42);
        for (int i = 0; i < 5_000; i++) {
            Measurement m = random(r);
            byte[] line = Protocol.write(m).getBytes(StandardCharsets.UTF_8);
            Measurement fast = MeasurementReader.canonical(line, 0, line.length);
            assertNotNull(fast, () -> "a written line left the fast path: " + new String(line, StandardCharsets.UTF_8));
            assertEquals(DATABIND.readValue(line), fast, () -> new String(line, StandardCharsets.UTF_8));
            assertEquals(m, fast);
            assertEquals(m.recordId(), fast.recordId());
        }
    }

    @Test
    void readsASeasonOfHistoryOnTheFastPath(@TempDir Path dir) throws IOException {
        SyntheticHistory.write(dir, 3_000, 7, 1);
        List<String> lines = Files.readAllLines(dir.resolve("records.jsonl"));
        assertEquals(3_000, lines.size());
        for (String l : lines) {
            byte[] b = l.getBytes(StandardCharsets.UTF_8);
            Measurement fast = MeasurementReader.canonical(b, 0, b.length);
            assertNotNull(fast, l);
            assertEquals(DATABIND.readValue(b), fast);
        }
    }

    @Test
    void leavesOtherFormsToDatabindWithTheirMeaning() throws IOException {
        String line = Protocol.write(random(new Random(1)));
        Map<String, Object> tree = Protocol.JSON.readValue(line, Map.class);
        // Fields in another order, an unknown field (a newer version), an older record without optional fields.
        Map<String, Object> reordered = new LinkedHashMap<>();
        reordered.put("agentId", tree.get("agentId"));
        tree.forEach(reordered::putIfAbsent);
        Map<String, Object> newer = new LinkedHashMap<>(tree);
        newer.put("fromTheFuture", Map.of("x", 1));
        Map<String, Object> older = new LinkedHashMap<>(tree);
        older.remove("implementation");
        older.remove("thermal");
        older.remove("sustainedNs");
        older.put("implementation", null); // read as 0
        Map<String, Object> listParam = new LinkedHashMap<>(tree);
        listParam.put("params", Map.of("tiles", List.of(1, 2)));
        Map<String, Object> quotedNumber = new LinkedHashMap<>(tree);
        quotedNumber.put("agentId", 17);
        for (Map<String, Object> form : List.of(reordered, newer, older, listParam, quotedNumber)) {
            byte[] b = Protocol.JSON.writeValueAsBytes(form);
            assertNull(MeasurementReader.canonical(b, 0, b.length), () -> new String(b, StandardCharsets.UTF_8));
            assertEquals(DATABIND.readValue(b), MeasurementReader.read(b, 0, b.length));
        }
        // Whitespace is still canonical: the parser skips it.
        byte[] spaced = line.replace(",\"", ", \"").getBytes(StandardCharsets.UTF_8);
        assertEquals(DATABIND.readValue(spaced), MeasurementReader.canonical(spaced, 0, spaced.length));
    }

    @Test
    void refusesWhatDatabindRefuses() {
        String line = Protocol.write(random(new Random(2)));
        List<String> bad = List.of(
                line + "{}", // two values on one line: a lost newline
                line.substring(0, line.length() - 1), // torn
                line.replace("\"index\":", "\"index\":null,\"x\":"), // null for a primitive
                line.replace("\"status\":\"" + statusOf(line) + "\"", "\"status\":3"), // 3 is not a status
                line.replace("\"status\":\"" + statusOf(line) + "\"", "\"status\":\"not a status\""),
                "[]", "");
        for (String l : bad) {
            byte[] b = l.getBytes(StandardCharsets.UTF_8);
            assertNull(MeasurementReader.canonical(b, 0, b.length), l);
            assertThrows(IOException.class, () -> DATABIND.readValue(b), l);
            assertThrows(IOException.class, () -> MeasurementReader.read(b, 0, b.length), l);
        }
    }

    @Test
    void readsALineInsideALargerBuffer() throws IOException {
        byte[] line = Protocol.write(random(new Random(3))).getBytes(StandardCharsets.UTF_8);
        byte[] page = new byte[line.length + 20];
        System.arraycopy(line, 0, page, 10, line.length);
        page[9] = '\n';
        page[10 + line.length] = '\n';
        assertEquals(DATABIND.readValue(line), MeasurementReader.read(page, 10, line.length));
    }

    private static String statusOf(String line) {
        int at = line.indexOf("\"status\":\"") + 10;
        return line.substring(at, line.indexOf('"', at));
    }

    /** A measurement with every nullable field null or set, optional fields present or not, parameters of every scalar type. */
    static Measurement random(Random r) {
        Map<String, Integer> shape = new LinkedHashMap<>();
        shape.put("N", 1 + r.nextInt(4096));
        shape.put("M", 1 + r.nextInt(4096));
        if (r.nextBoolean()) shape.put("K", 1 + r.nextInt(4096));
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("tileM", r.nextInt(256));
        params.put("big", r.nextBoolean() ? (Object) (Integer.MAX_VALUE + 1L + r.nextInt(1000)) : (Object) (-r.nextInt(9)));
        params.put("ratio", r.nextDouble() * (r.nextBoolean() ? 1e-9 : 1e9));
        params.put("layout", r.nextBoolean() ? "NHWC" : "nç\"\\\t☃");
        params.put("packed", r.nextBoolean());
        if (r.nextInt(5) == 0) params.put("none", null);
        Status status = switch (r.nextInt(4)) {
            case 0 -> Status.OK;
            case 1 -> Status.THROTTLED;
            case 2 -> Status.of("FROM_A_NEWER_VERSION");
            default -> Status.CRASH;
        };
        Stats stats = r.nextInt(4) == 0 ? null
                : new Stats(r.nextDouble() * 1e7, r.nextDouble() * 1e7, r.nextDouble() * 1e7, r.nextDouble(), r.nextDouble(), 1 + r.nextInt(50),
                        1 + r.nextInt(1000), r.nextInt(3));
        Thermal thermal = r.nextBoolean() ? null
                : new Thermal(r.nextBoolean() ? null : 40 + r.nextDouble() * 40, r.nextInt(100_000), r.nextBoolean(), r.nextBoolean() ? null : "clock");
        return new Measurement(r.nextInt(9) == 0 ? null : Long.toHexString(r.nextLong()), new KernelKey(r.nextBoolean() ? "gemm" : "conv2d", shape, "fp32"),
                r.nextInt(1 << 30) * (r.nextBoolean() ? 1L : 1L << 20), params, status, stats, r.nextBoolean() ? null : r.nextDouble() * 1e-5,
                sensors(r), sensors(r), r.nextBoolean() ? "" : "exit 137\nstderr: \u0000 tail", "board-" + r.nextInt(1000),
                "zen5-2c-avx512-" + r.nextInt(9), r.nextLong() >>> 20, r.nextLong() >>> 20, r.nextInt(64), r.nextInt(3), thermal,
                r.nextBoolean() ? null : r.nextDouble() * 1e6, r.nextBoolean() ? null : r.nextDouble(), r.nextInt(3));
    }

    private static SensorReading sensors(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> null;
            case 1 -> SensorReading.NONE;
            case 2 -> new SensorReading(40 + r.nextDouble() * 40, 1800.0, r.nextBoolean() ? null : 3.5);
            default -> new SensorReading(50.0, r.nextDouble() * 4000, null, "thermal_zone0", r.nextBoolean() ? null : "cpufreq",
                    r.nextBoolean() ? null : 4000.0, r.nextBoolean() ? null : r.nextDouble(), r.nextBoolean() ? null : r.nextInt(16));
        };
    }
}
