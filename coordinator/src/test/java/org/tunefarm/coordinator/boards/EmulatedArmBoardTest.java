package org.tunefarm.coordinator.boards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;

/**
 * A Raspberry Pi 4 without the Pi: Debian's arm64 Java 17 under qemu-user emulating a
 * Cortex-A72 (registered with binfmt_misc, so the worker JVMs the agent starts with its own
 * {@code java} are emulated too, and inherit {@code QEMU_CPU}). The agent registers as an
 * aarch64, 128-bit NEON, Java 17 device class and a small GEMM sweep verifies every candidate,
 * after C2 has compiled its micro-kernel to NEON code.
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
        // Every JVM of the board (agent and workers: they inherit the environment) logs what its
        // JIT compiled, so the test can see that C2 compiled the NEON micro-kernels it verified.
        Map<String, String> env = Map.of("QEMU_CPU", "cortex-a72",
                "JAVA_TOOL_OPTIONS", "-Xlog:jit+compilation=debug:file=" + data.resolve("jit-%p.log"));
        // Emulated heartbeats lag on a loaded machine: three missed at 5 s is 15 s of silence
        // before the board counts as dead and its lease is lent again.
        try (BoardFarm farm = new BoardFarm(data, 5_000);
             BoardAgent board = BoardAgent.start(java, List.of("--add-modules=jdk.incubator.vector"), env, "pi4",
                     farm.bridge(), data.resolve("pi4.log"))) {
            JsonNode agent = farm.awaitAgent("pi4", Duration.ofMinutes(5), board::alive, "the emulated agent exited:\n" + board.logText());
            String deviceClass = agent.path("deviceClass").asText();
            System.out.println("pi4 registered in device class " + deviceClass + " after " + seconds(started) + " s");
            JsonNode profile = agent.path("profile");
            assertEquals("aarch64", profile.path("arch").asText(), agent.toString());
            assertEquals(128, profile.path("vectorBits").asInt(), agent.toString());
            assertEquals(17, profile.path("jvmMajor").asInt(), agent.toString());
            assertTrue(deviceClass.contains("-neon128-jdk17-"), deviceClass);

            // Two register-blocked 4-row candidates and the scalar baseline, each warmed up for
            // 10 s (steadyTolerance 0: no early stop), long enough for C2 to compile the micro-kernel;
            // the harness checks the output of the compiled code after the samples.
            String id = farm.submit("""
                    name: pi4-gemm
                    kernel: gemm
                    shapes: [{M: 16, N: 32, K: 16}]
                    space: {kernel: [vector], threads: [1], microRows: [4], microVecs: [1, 2], packA: [0], packB: [0]}
                    strategy: {name: random, budget: 2, seed: 5}
                    measure: {minSamples: 2, minSampleMs: 20, maxWarmupMs: 10000, steadyTolerance: 0, maxRetakes: 0,
                              timeoutMs: 120000, finalists: 0}
                    batchSize: 3
                    deviceClasses: [%s]
                    """.formatted(deviceClass));
            farm.awaitDone(id, Duration.ofMinutes(5), board::alive, "the emulated agent exited:\n" + board.logText());
            List<Measurement> records = farm.records(id);
            for (Measurement m : records) {
                assertEquals(deviceClass, m.deviceClass(), m.toString());
                assertEquals(Status.OK, m.status(), m.toString());
                assertTrue(m.maxError() != null && m.maxError() < 1e-3, "every answer was checked: " + m);
            }
            assertEquals(3, records.size(), "two candidates and the baseline");
            assertEquals(2, records.stream().filter(m -> m.params().get("kernel").equals("vector")).count(), records.toString());
            assertTrue(c2CompiledAMicroKernel(), "C2 compiled a NEON micro-kernel in a worker; JIT logs in " + data);
            System.out.println("pi4 sweep done after " + seconds(started) + " s");
        }
    }

    /** Whether a JIT log of the board shows a GEMM micro-kernel compiled at tier 4 (C2). */
    private boolean c2CompiledAMicroKernel() throws IOException {
        Pattern c2 = Pattern.compile("\\s4\\s+org\\.tunefarm\\.agent\\.kernels\\.gemm\\.UnrolledMicroKernels::k4x[12]\\w*\\s");
        try (Stream<Path> logs = Files.list(data)) {
            for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("jit-")).toList()) {
                if (c2.matcher(Files.readString(log)).find()) return true;
            }
        }
        return false;
    }

    private static long seconds(long since) {
        return (System.nanoTime() - since) / 1_000_000_000L;
    }
}
