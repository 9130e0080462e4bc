package org.tunefarm.coordinator.boards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;

/**
 * A Raspberry Pi 4 without the Pi: Debian's arm64 Java 17 under qemu-user emulating a
 * Cortex-A72 (registered with binfmt_misc, so the worker JVMs the agent starts with its own
 * {@code java} are emulated too, and inherit {@code QEMU_CPU}). The agent registers as an
 * aarch64, 128-bit NEON, Java 17 device class and a small GEMM sweep verifies every candidate.
 * Emulated timings mean nothing; correctness, the class and the whole path are real. The
 * machine set-up is {@code deploy/ci/arm64-board.sh}.
 */
class EmulatedArmBoardTest {
    static final Map<String, String> CORTEX_A72 = Map.of("QEMU_CPU", "cortex-a72");

    @TempDir Path data;

    @Test void aCortexA72WithJava17RegistersAsNeon128AndVerifiesAGemmSweep() throws Exception {
        String java = BoardJre.require("tunefarm.java17arm64", "/usr/lib/jvm/java-17-openjdk-arm64/bin/java", CORTEX_A72,
                "run deploy/ci/arm64-board.sh as root (arm64 openjdk-17-jre-headless, qemu-user-static, binfmt_misc registration)");
        long started = System.nanoTime();
        // Emulated heartbeats lag on a loaded machine: three missed at 5 s is 15 s of silence
        // before the board counts as dead and its lease is lent again.
        try (BoardFarm farm = new BoardFarm(data, 5_000);
             BoardAgent board = BoardAgent.start(java, List.of("--add-modules=jdk.incubator.vector"), CORTEX_A72, "pi4",
                     farm.bridge(), data.resolve("pi4.log"))) {
            JsonNode agent = farm.awaitAgent("pi4", Duration.ofMinutes(5), board::alive, "the emulated agent exited:\n" + board.logText());
            String deviceClass = agent.path("deviceClass").asText();
            System.out.println("pi4 registered in device class " + deviceClass + " after " + seconds(started) + " s");
            JsonNode profile = agent.path("profile");
            assertEquals("aarch64", profile.path("arch").asText(), agent.toString());
            assertEquals(128, profile.path("vectorBits").asInt(), agent.toString());
            assertEquals(17, profile.path("jvmMajor").asInt(), agent.toString());
            assertTrue(deviceClass.contains("-neon128-jdk17-"), deviceClass);

            String id = farm.submit("""
                    name: pi4-gemm
                    kernel: gemm
                    shapes: [{M: 16, N: 32, K: 16}]
                    space: {threads: [1]}
                    strategy: {name: random, budget: 4, seed: 5}
                    measure: {minSamples: 1, minSampleMs: 1, maxWarmupMs: 0, timeoutMs: 120000, finalists: 0}
                    batchSize: 5
                    deviceClasses: [%s]
                    """.formatted(deviceClass));
            farm.awaitDone(id, Duration.ofMinutes(5), board::alive, "the emulated agent exited:\n" + board.logText());
            List<Measurement> records = farm.records(id);
            for (Measurement m : records) {
                assertEquals(deviceClass, m.deviceClass(), m.toString());
                assertEquals(Status.OK, m.status(), m.toString());
                assertTrue(m.maxError() != null && m.maxError() < 1e-3, "every answer was checked: " + m);
            }
            assertEquals(5, records.size(), "four candidates and the baseline");
            assertTrue(records.stream().anyMatch(m -> m.params().get("kernel").equals("vector")), "NEON kernels ran: " + records);
            System.out.println("pi4 sweep done after " + seconds(started) + " s");
        }
    }

    private static long seconds(long since) {
        return (System.nanoTime() - since) / 1_000_000_000L;
    }
}
