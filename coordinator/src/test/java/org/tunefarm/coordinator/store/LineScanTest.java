package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log opened with its lines parsed on worker threads reads what a serial open reads: every
 * readable line once (those with text beyond ASCII too), in log order, whichever block of the file it lies in or spans (lines longer
 * than a block included), the unreadable ones quarantined at their offsets and a torn tail cut.
 */
class LineScanTest {
    @TempDir Path dir;

    @Test void linesParsedOnWorkersAreHandedOnInLogOrder() throws IOException {
        Random random = new Random(7);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<Integer> readable = new ArrayList<>();
        List<Long> badOffsets = new ArrayList<>();
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        for (int i = 0; i < 6000; i++) {
            long at = log.size();
            // Mostly record-sized lines; now and then one longer than a block (256 KB) or than two.
            int pad = i % 1000 == 17 ? 300_000 + random.nextInt(400_000) : random.nextInt(1500);
            byte[] line;
            if (i % 777 == 5) {
                line = ("{\"n\": " + i + ", \"cut\": \"" + "x".repeat(pad)).getBytes(StandardCharsets.US_ASCII);
                badOffsets.add(at);
            } else {
                // Some lines carry text beyond ASCII (valid UTF-8, read like any other), anywhere in the line.
                String text = i % 50 == 3 ? "y".repeat(pad) + "\u00e9" + "y".repeat(i % 11) : "y".repeat(pad);
                line = ("{\"n\":" + i + ",\"pad\":\"" + text + "\"}").getBytes(StandardCharsets.UTF_8);
                readable.add(i);
                kept.write(line);
                kept.write('\n');
            }
            log.write(line);
            log.write('\n');
        }
        log.write("{\"n\": torn".getBytes(StandardCharsets.US_ASCII));

        for (int threads : new int[] {0, 1, 3}) {
            Path file = dir.resolve("log-" + threads + ".jsonl");
            Files.write(file, log.toByteArray());
            Quarantine quarantine = new Quarantine(file);
            List<Integer> read = new ArrayList<>();
            int quarantined = LineScan.open(file, quarantine, (line, from, length) -> LineScan.strictReader(JsonNode.class).<JsonNode>readValue(line, from, length).get("n").asInt(), read::add, threads);

            assertEquals(readable, read, threads + " threads");
            assertEquals(badOffsets.size(), quarantined, threads + " threads");
            assertEquals(badOffsets, quarantine.entries().stream().map(Quarantine.Entry::offset).toList(), threads + " threads");
            assertArrayEquals(kept.toByteArray(), Files.readAllBytes(file), threads + " threads: the log keeps exactly its readable lines");
        }
    }
}
