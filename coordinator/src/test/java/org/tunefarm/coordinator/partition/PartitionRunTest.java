package org.tunefarm.coordinator.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.local.CoordinatorProcess;
import org.tunefarm.protocol.Protocol;

/**
 * The partition bench, shortened ({@code bench partition --quick}), run as a child process: it
 * stages network namespaces (so it needs root and iproute2, as CI has), cuts side 2 off for 20 s
 * during a 257-candidate sleep sweep and heals it, once with three coordinators and quorum 2 and
 * once with two and quorum 1. This JVM stays outside the namespaces and reads the child's last line.
 * Where namespaces cannot be made, the test fails and says why: it never passes without running.
 */
class PartitionRunTest {
    @TempDir Path dir;

    @Test void healedPartitionLosesNothingStoresNothingTwiceAndOnlyTheQuorumDispatches() throws Exception {
        List<String> cmd = new ArrayList<>(CoordinatorProcess.jvm("-Xmx256m"));
        cmd.addAll(List.of("bench", "partition", "--quick", "--dir", dir.toString()));
        // Its log is read with its output, so a failure's message carries the bench's last words
        // (a CI log shows the assertion, not this test's output file).
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String json = null;
        java.util.ArrayDeque<String> tail = new java.util.ArrayDeque<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                System.out.println(line);
                if (line.startsWith("[")) json = line;
                tail.addLast(line);
                if (tail.size() > 25) tail.removeFirst();
            }
        }
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the bench did not exit");
        String said = "\n" + String.join("\n", tail);
        assertNotEquals(PartitionCommand.CANNOT_STAGE, p.exitValue(),
                "could not stage network namespaces: this test needs root and iproute2 (ip netns):" + said);
        assertTrue(json != null, "no JSON line from the bench (exit " + p.exitValue() + "); its last lines:" + said);
        String last = json;
        JsonNode scenarios = Protocol.JSON.readTree(last);
        assertEquals(2, scenarios.size(), last);
        for (JsonNode o : scenarios) {
            assertEquals(8 * 16 * 2, o.path("candidates").asInt(), "a in [0, 7]: every point valid; the default point is the baseline: " + o);
            assertEquals(0, o.path("lost").asInt(), "lost: " + o);
            assertEquals(o.path("candidates").asInt(), o.path("recorded").asInt(), o.toString());
            assertEquals(0, o.path("duplicatesStored").asInt(), "stored twice: " + o);
            assertEquals(0, o.path("replicaGaps").asInt(), "every coordinator holds every record: " + o);
            assertEquals(1, o.path("leadersAfterHeal").asInt(), o.toString());
            assertTrue(o.path("measuredTwiceOnHealth").asInt() >= o.path("measuredTwice").asInt(),
                    "every candidate both sides measured is counted on /api/health: " + o);
        }
        JsonNode fenced = scenarios.get(0);
        assertEquals(2, fenced.path("quorum").asInt());
        assertEquals(1, fenced.path("dispatchingDuringCut").asInt(), "with quorum 2 only the majority dispatches: " + fenced);
        assertEquals(0, fenced.path("measuredTwice").asInt(), "the minority measured nothing: " + fenced);
        JsonNode both = scenarios.get(1);
        assertEquals(1, both.path("quorum").asInt());
        assertEquals(2, both.path("dispatchingDuringCut").asInt(), "with quorum 1 each side dispatches: " + both);
        assertEquals(0, p.exitValue(), last);
    }
}
