package org.tunefarm.agent.kernels.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;

/** Command kernels made of small sh scripts: what the worker does with exits, timeouts, outputs and builds. */
class CommandWorkerTest {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final KernelKey KEY = new KernelKey("k", Map.of("N", 10), "fp32");
    static final MeasureSettings SETTINGS = MeasureSettings.DEFAULTS.withTimeoutMs(20_000).withSeed(7);

    @TempDir Path dir;

    /** A kernel whose run is {@code sh run.sh {X} {N} {seed}} and whose build is {@code sh build.sh {X}}. */
    CommandKernels kernels(String runScript, String buildScript, String extra) throws Exception {
        Files.writeString(dir.resolve("run.sh"), runScript);
        if (buildScript != null) Files.writeString(dir.resolve("build.sh"), buildScript);
        String yaml = """
                - name: k
                  dimensions: [N]
                  flops: "N"
                  parameters: {X: [1, 2, 3]}
                  default: {X: 1}
                  workdir: .
                """ + (buildScript != null ? "  build: [sh, build.sh, \"{X}\"]\n" : "")
                + "  run: [sh, run.sh, \"{X}\", \"{N}\", \"{seed}\"]\n" + extra;
        return new CommandKernels(CommandKernelReader.read(YAML.readTree(yaml), dir));
    }

    static CandidateOutcome measure(CommandKernels ks, int x) {
        try (Worker w = ks.worker()) {
            return w.measure(KEY, Map.of("X", x), SETTINGS);
        }
    }

    @Test void jsonTimesBecomeStatsInNanosecondsPerCall() throws Exception {
        CandidateOutcome o = measure(kernels("echo starting\necho '{\"times_ms\": [2, 1, 3], \"correct\": true}'\n", null, ""), 2);
        assertEquals(Status.OK, o.status(), o.detail());
        assertEquals(3, o.stats().samples());
        assertEquals(2e6, o.stats().medianNs(), 1e-3);
        assertEquals(1e6, o.stats().minNs(), 1e-3);
    }

    @Test void placeholdersReachTheProgramAsArguments() throws Exception {
        CandidateOutcome o = measure(kernels("echo \"{\\\"time_ms\\\": $1$2$3}\"\n", null, ""), 3);
        assertEquals(Status.OK, o.status(), o.detail());
        assertEquals(3107e6, o.stats().medianNs(), 1, "X=3, N=10, seed=7");
    }

    @Test void correctFalseIsAWrongAnswer() throws Exception {
        CandidateOutcome o = measure(kernels("echo '{\"time_ms\": 1.5, \"correct\": false, \"max_error\": 0.5}'\n", null, ""), 1);
        assertEquals(Status.WRONG_ANSWER, o.status());
        assertEquals(0.5, o.maxError());
    }

    @Test void aRegexReadsTimesFromFreeText() throws Exception {
        CandidateOutcome o = measure(kernels("echo 'time=1.5 ms'\necho noise\necho 'time=2.5 ms'\n", null,
                "  output: regex\n  regex: \"time=([0-9.]+) ms\"\n"), 1);
        assertEquals(Status.OK, o.status(), o.detail());
        assertEquals(2, o.stats().samples());
        assertEquals(2e6, o.stats().medianNs(), 1e-3);
    }

    @Test void unreadableOutputIsACrashWithTheOutputKept() throws Exception {
        CandidateOutcome o = measure(kernels("echo 'all good, no numbers'\n", null, ""), 1);
        assertEquals(Status.CRASH, o.status());
        assertTrue(o.detail().contains("all good, no numbers"), o.detail());
    }

    @Test void aNonZeroExitIsACrashThatKeepsTheStderrTail() throws Exception {
        String script = "i=0; while [ $i -lt 2000 ]; do echo \"noise line $i\" >&2; i=$((i+1)); done\necho 'segfault at the end' >&2\nexit 3\n";
        CandidateOutcome o = measure(kernels(script, null, ""), 1);
        assertEquals(Status.CRASH, o.status());
        assertTrue(o.detail().contains("code 3"), o.detail());
        assertTrue(o.detail().endsWith("segfault at the end"), o.detail());
        assertFalse(o.detail().contains("noise line 0\n"), "only the tail is kept");
    }

    @Test void aFailingBuildIsBuildFailedWithItsStderr() throws Exception {
        CandidateOutcome o = measure(kernels("echo '{\"time_ms\": 1}'\n", "echo 'sgemm.c:3: error: expected ;' >&2\nexit 1\n", ""), 1);
        assertEquals(Status.BUILD_FAILED, o.status());
        assertTrue(o.detail().contains("expected ;"), o.detail());
    }

    @Test void aTimeoutKillsTheWholeProcessTree() throws Exception {
        // The script starts a sleeper child, records its pid, then hangs itself.
        String script = "sleep 300 &\necho $! > child.pid\nsleep 300\n";
        CommandKernels ks = kernels(script, null, "  runTimeoutMs: 700\n");
        long start = System.nanoTime();
        CandidateOutcome o = measure(ks, 1);
        assertEquals(Status.TIMEOUT, o.status(), o.detail());
        assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() < 10_000);
        long child = Long.parseLong(Files.readString(dir.resolve("child.pid")).strip());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true));
    }

    @Test void theSweepsTimeoutAppliesWhenShorter() throws Exception {
        CommandKernels ks = kernels("sleep 300\n", null, "");
        try (Worker w = ks.worker()) {
            CandidateOutcome o = w.measure(KEY, Map.of("X", 1), SETTINGS.withTimeoutMs(500));
            assertEquals(Status.TIMEOUT, o.status());
        }
    }

    @Test void eachConfigurationIsBuiltOnceAcrossLeasesAndThreads() throws Exception {
        CommandKernels ks = kernels("echo '{\"time_ms\": 1}'\n", "sleep 0.3\necho $1 >> builds.log\n", "");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<CandidateOutcome>> fs = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) fs.add(pool.submit(() -> measure(ks, 2)));
            for (var f : fs) assertEquals(Status.OK, f.get().status(), f.get().detail());
        } finally {
            pool.shutdownNow();
        }
        assertEquals(Status.OK, measure(ks, 2).status());
        assertEquals(Status.OK, measure(ks, 3).status());
        assertEquals(List.of("2", "3"), Files.readAllLines(dir.resolve("builds.log")));
        assertEquals(2, ks.cache().buildsStarted());
    }

    @Test void valuesOutsideTheDeclaredSpaceNeverReachAProgram() throws Exception {
        CommandKernels ks = kernels("echo ran > ran.txt\necho '{\"time_ms\": 1}'\n", null, "");
        try (Worker w = ks.worker()) {
            CandidateOutcome o = w.measure(KEY, Map.of("X", "1; touch pwned"), SETTINGS);
            assertEquals(Status.INVALID, o.status());
            assertTrue(o.detail().startsWith("params:"), o.detail());
            assertEquals(Status.INVALID, w.measure(KEY, Map.of("X", 1, "Y", 2), SETTINGS).status());
            assertEquals(Status.INVALID, w.measure(new KernelKey("k", Map.of("M", 10), "fp32"), Map.of("X", 1), SETTINGS).status());
        }
        assertFalse(Files.exists(dir.resolve("ran.txt")));
        assertFalse(Files.exists(dir.resolve("pwned")));
    }

    @Test void aRealTiledSgemmIsCompiledPerCandidateAndVerified() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/gcc")) || Files.isExecutable(Path.of("/bin/gcc")), "gcc is absent");
        // The example a board owner copies from configs/ is the program the test builds.
        Files.copy(Path.of("../configs/kernels/c_sgemm/sgemm.c"), dir.resolve("sgemm.c"));
        Files.createDirectories(dir.resolve("build"));
        String yaml = """
                - name: c_sgemm
                  dimensions: [M, N, K]
                  flops: "2*M*N*K"
                  parameters: {TM: [16, 32], TN: [16, 64], TK: [16, 32], UNROLL: [1, 4]}
                  default: {TM: 16, TN: 16, TK: 16, UNROLL: 1}
                  workdir: .
                  build: [gcc, -O2, "-DTM={TM}", "-DTN={TN}", "-DTK={TK}", "-DUNROLL={UNROLL}", -o, "build/sgemm_{TM}_{TN}_{TK}_{UNROLL}", sgemm.c]
                  run: ["build/sgemm_{TM}_{TN}_{TK}_{UNROLL}", "{M}", "{N}", "{K}", "{seed}", "{samples}"]
                """;
        CommandKernels ks = new CommandKernels(CommandKernelReader.read(YAML.readTree(yaml), dir));
        KernelKey key = new KernelKey("c_sgemm", Map.of("M", 96, "N", 80, "K", 72), "fp32");
        try (Worker w = ks.worker()) {
            CandidateOutcome o = w.measure(key, Map.of("TM", 32, "TN", 64, "TK", 16, "UNROLL", 4), SETTINGS.withMinSamples(4));
            assertEquals(Status.OK, o.status(), o.detail());
            assertEquals(4, o.stats().samples());
            assertNotNull(o.maxError());
            assertTrue(o.maxError() < 1e-3, "checked against the naive loop: " + o.maxError());
        }
        assertTrue(Files.isExecutable(dir.resolve("build/sgemm_32_64_16_4")));
    }
}
