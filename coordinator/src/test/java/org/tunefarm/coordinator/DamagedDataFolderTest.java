package org.tunefarm.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;

/**
 * A coordinator starts on a data folder with damaged lines in both logs: it keeps every readable
 * record, logs one line per quarantined line, shows the count on /api/health, and does not
 * quarantine the same lines again on its next start.
 */
class DamagedDataFolderTest {
    static final KernelKey KEY = new KernelKey("sleep", Map.of("unitUs", 100), "fp32");

    @TempDir Path data;
    final HttpClient http = HttpClient.newHttpClient();

    static Measurement record(long index, double ns) {
        return new Measurement("sw1", KEY, index, Map.of("a", (int) index, "b", 11, "mode", "fast"), Status.OK, Stats.of(new double[] {ns, ns, ns}, 1),
                0.0, SensorReading.NONE, SensorReading.NONE, "", "agent-1", "zen3-2c-avx256-jdk25-00000000", 1_000, 2_000, 0);
    }

    JsonNode get(Coordinator c, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.httpPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    @Test void aCoordinatorStartsOnDamagedLogsAndShowsWhatItQuarantined() throws Exception {
        // Five records; the fastest (index 2) has a flipped byte, index 4 bytes that are not UTF-8.
        ByteArrayOutputStream records = new ByteArrayOutputStream();
        double[] ns = {5_000, 4_000, 1_000, 3_000, 2_000};
        for (int i = 0; i < ns.length; i++) {
            byte[] line = Protocol.write(record(i, ns[i])).getBytes(StandardCharsets.UTF_8);
            if (i == 2) line[1] ^= 0x04;
            if (i == 4) line[line.length - 3] = (byte) 0xFE;
            records.write(line);
            records.write('\n');
        }
        Files.createDirectories(data);
        Files.write(data.resolve("records.jsonl"), records.toByteArray());
        byte[] sweep = Protocol.write(new SweepLog.Entry("sw1", 1_000, SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\n")))
                .getBytes(StandardCharsets.UTF_8);
        byte[] damagedSweep = sweep.clone();
        damagedSweep[5] = (byte) 0xC0;
        Files.write(data.resolve("sweeps.jsonl"), concat(sweep, damagedSweep));

        List<String> logged = new ArrayList<>();
        Logger scan = Logger.getLogger("org.tunefarm.coordinator.store.LineScan");
        Handler capture = new Handler() {
            @Override public void publish(LogRecord r) {
                if (r.getMessage().contains("quarantined")) logged.add(r.getMessage());
            }

            @Override public void flush() {}

            @Override public void close() {}
        };
        scan.addHandler(capture);
        CoordinatorConfig config = TestFarm.config(data);
        try {
            try (Coordinator c = new Coordinator(config).start()) {
                assertEquals(3, get(c, "/api/health").path("quarantined").asInt());
                JsonNode sweeps = get(c, "/api/sweeps");
                assertEquals(1, sweeps.size(), sweeps.toString());
                JsonNode table = get(c, "/api/table?op=sleep").path("entries");
                assertEquals(1, table.size(), table.toString());
                assertEquals(3, table.get(0).path("params").path("a").asInt(), "the fastest readable record (3 ms; 1 and 2 ms are quarantined) wins: " + table);
            }
            assertEquals(3, logged.size(), "one line per quarantined line: " + logged);
            assertTrue(logged.get(0).contains("at byte"), logged.get(0));
            assertEquals(3, Files.readAllLines(data.resolve("records.jsonl")).size(), "the readable records are all kept");

            logged.clear();
            try (Coordinator c = new Coordinator(config).start()) {
                assertEquals(3, get(c, "/api/health").path("quarantined").asInt(), "the same lines are not quarantined twice");
            }
            assertEquals(List.of(), logged);
        } finally {
            scan.removeHandler(capture);
        }
    }

    static byte[] concat(byte[] first, byte[] second) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(first);
        out.write('\n');
        out.writeBytes(second);
        out.write('\n');
        return out.toByteArray();
    }
}
