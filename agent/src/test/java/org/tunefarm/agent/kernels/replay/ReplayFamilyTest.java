package org.tunefarm.agent.kernels.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.Harness;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.agent.kernels.KernelFamilies;
import org.tunefarm.agent.worker.WorkerCommand;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpecs;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;
import org.tunefarm.replay.ReplaySpaces;

class ReplayFamilyTest {

    static final String CACHE = """
            {"device_name": "Fake GPU", "kernel_name": "k", "tune_params_keys": ["bx", "mode"],
             "tune_params": {"bx": [16, 32, 64], "mode": ["a", "b"]},
             "cache": {
            "16,a": {"bx": 16, "mode": "a", "time": 3.0, "times": [3.0, 2.0, 2.5]},
            "16,b": {"bx": 16, "mode": "b", "time": "InvalidConfig"},
            "32,a": {"bx": 32, "mode": "a", "time": "CompilationFailedConfig"},
            "64,b": {"bx": 64, "mode": "b", "time": "RuntimeFailedConfig"}}}
            """;
    /** A minute of timeout: a replayed candidate must answer at once whatever the settings. */
    static final MeasureSettings SETTINGS = new MeasureSettings(5, 50.0, 1000, 0.05, 60_000, 1);

    @TempDir static Path dir;
    static ReplayFamily family;
    static KernelKey key;

    @BeforeAll static void register() throws IOException {
        Files.writeString(dir.resolve("fakeagent_GPU.json"), CACHE);
        family = ReplayFamily.register(dir).get(0);
        key = family.spec().key();
    }

    @Test void registeringAddsTheSpecAndTheFamilyUnderTheSameName() {
        assertEquals("replay.fakeagent_GPU", family.spec().op());
        assertSame(family, KernelFamilies.get("replay.fakeagent_GPU"));
        assertSame(family.spec(), KernelSpecs.get("replay.fakeagent_GPU"));
        assertSame(family, ReplayFamily.register(dir).get(0), "registering again keeps the first");
    }

    @Test void theHarnessReportsTheRecordedMedianWithoutTimingAnything() {
        long t0 = System.nanoTime();
        CandidateOutcome o = Harness.create().measure(family, key, Map.of("bx", 16, "mode", "a"), SETTINGS);
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "no warm-up, no 50 ms samples");
        assertEquals(Status.OK, o.status());
        assertEquals(2.5e6, o.stats().medianNs(), 1e-6, "median of times, in ns");
        assertEquals(1, o.stats().samples());
        assertNull(o.maxError(), "nothing was computed, so nothing was verified");
        assertEquals("replayed from fakeagent_GPU.json", o.detail());
    }

    @Test void recordedFailuresComeBackAsFailuresNamingTheRecording() {
        Harness h = Harness.create();
        assertEquals(Status.INVALID, h.measure(family, key, Map.of("bx", 16, "mode", "b"), SETTINGS).status());
        assertEquals(Status.BUILD_FAILED, h.measure(family, key, Map.of("bx", 32, "mode", "a"), SETTINGS).status());
        CandidateOutcome crash = h.measure(family, key, Map.of("bx", 64, "mode", "b"), SETTINGS);
        assertEquals(Status.CRASH, crash.status());
        assertEquals("replayed from fakeagent_GPU.json: RuntimeFailedConfig", crash.detail());
    }

    @Test void aConfigurationNotInTheRecordingIsInvalid() {
        CandidateOutcome o = Harness.create().measure(family, key, Map.of("bx", 64, "mode", "a"), SETTINGS);
        assertEquals(Status.INVALID, o.status());
        assertTrue(o.detail().contains("not a recorded configuration"), o.detail());
    }

    @Test void aWorkerJvmGivenTheSpacesFolderAnswersTheSame() {
        WorkerCommand cmd = WorkerCommand.current().withJvmArgs("-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-D" + ReplaySpaces.PROPERTY + "=" + dir);
        try (Worker w = cmd.newWorker()) {
            CandidateOutcome o = w.measure(key, Map.of("bx", 16, "mode", "a"), SETTINGS);
            assertEquals(Status.OK, o.status(), o.detail());
            assertEquals(2.5e6, o.stats().medianNs(), 1e-6);
            assertEquals(List.of(Status.BUILD_FAILED), List.of(w.measure(key, Map.of("bx", 32, "mode", "a"), SETTINGS).status()));
        }
    }
}
