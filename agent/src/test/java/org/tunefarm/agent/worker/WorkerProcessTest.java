package org.tunefarm.agent.worker;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.agent.harness.Batch;
import org.tunefarm.agent.harness.BatchCandidate;
import org.tunefarm.agent.harness.BatchRunner;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.FamilyLookup;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.agent.testkernels.RogueFamily;
import org.tunefarm.agent.testkernels.SpinFamily;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;

/** Real worker JVMs, started with this test's class path so they find the test families. */
class WorkerProcessTest {

    private static final MeasureSettings QUICK = new MeasureSettings(3, 1.0, 50, 0.1, 20_000, 3);

    private static WorkerProcess worker() {
        WorkerCommand cmd = WorkerCommand.current().withJvmArgs("-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-D" + FamilyLookup.PROPERTY + "=" + RogueFamily.class.getName() + "," + SpinFamily.class.getName());
        return (WorkerProcess) cmd.newWorker();
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Test
    void crashesAreReportedAndLaterCandidatesRunInARestartedWorker() {
        List<String> behaviours = List.of("ok", "exit", "chatty", "halt", "ok", "throw", "ok");
        List<BatchCandidate> cs = new ArrayList<>();
        for (int i = 0; i < behaviours.size(); i++) cs.add(new BatchCandidate(i, RogueFamily.params(behaviours.get(i))));
        WorkerProcess wp = worker();
        Map<Long, Long> pidAfter = new HashMap<>();
        List<Measurement> ms = new ArrayList<>();
        new BatchRunner(() -> wp, Sensors.NONE, "a", "c", Clock.systemUTC())
                .run(new Batch("s", RogueFamily.key(), cs, QUICK), m -> {
                    ms.add(m);
                    ProcessHandle h = wp.handle();
                    pidAfter.put(m.index(), h == null ? null : h.pid());
                });
        assertEquals(behaviours.size(), ms.size(), "the batch went on after each crash");
        assertNull(wp.handle(), "closed at the end of the batch");

        Long pid = null;
        boolean diedSince = false;
        int restarts = 0;
        for (Measurement m : ms) {
            String behaviour = behaviours.get((int) m.index());
            switch (behaviour) {
                case "exit" -> {
                    assertEquals(Status.CRASH, m.status());
                    assertTrue(m.detail().contains("code 3") && m.detail().contains("rogue: exiting with 3"), m.detail());
                    diedSince = true;
                }
                case "halt" -> {
                    assertEquals(Status.CRASH, m.status());
                    assertTrue(m.detail().contains("code 7"), m.detail());
                    diedSince = true;
                }
                case "throw" -> assertEquals(Status.CRASH, m.status(), "a kernel exception is a crash; the worker survives");
                default -> {
                    assertEquals(Status.OK, m.status(), behaviour + ": " + m.detail());
                    long now = pidAfter.get(m.index());
                    if (pid != null) {
                        if (diedSince) {
                            assertNotEquals(pid, now, "a fresh worker after a death");
                            restarts++;
                        }
                        else assertEquals(pid, now, "the same worker while it lives");
                    }
                    pid = now;
                    diedSince = false;
                }
            }
        }
        assertTrue(restarts >= 1, "this seed's order puts an OK candidate after a death: " + ms.stream().map(m -> behaviours.get((int) m.index())).toList());
    }

    @Test
    void infiniteLoopTimesOutAndTheWholeProcessTreeIsKilled(@TempDir Path dir) throws Exception {
        try (WorkerProcess wp = worker()) {
            assertEquals(Status.OK, wp.measure(SpinFamily.key(), Map.of("us", 50), QUICK).status());
            long workerPid = wp.handle().pid();
            Path pidFile = dir.resolve("child.pid");
            Map<String, Object> spawn = Map.of("behaviour", "spawn", "pidFile", pidFile.toString());

            long t0 = System.nanoTime();
            CandidateOutcome out = wp.measure(RogueFamily.key(), spawn, QUICK.withTimeoutMs(1500));
            long elapsedMs = (System.nanoTime() - t0) / 1_000_000;

            assertEquals(Status.TIMEOUT, out.status(), out.detail());
            assertTrue(elapsedMs >= 1500 && elapsedMs < 1500 + 4000, "timed out after " + elapsedMs + " ms");
            assertNull(wp.handle());
            long childPid = Long.parseLong(Files.readString(pidFile).strip());
            await().atMost(Duration.ofSeconds(10)).until(() -> !alive(workerPid) && !alive(childPid));

            assertEquals(Status.OK, wp.measure(RogueFamily.key(), RogueFamily.params("ok"), QUICK).status(), "restarted for the next one");
            assertNotNull(wp.handle());
            assertNotEquals(workerPid, wp.handle().pid());
        }
    }

    @Test
    void workerThatCannotStartIsACrash() {
        WorkerCommand broken = new WorkerCommand("/nonexistent/java", "", List.of(), 5000, 0);
        CandidateOutcome out = broken.newWorker().measure(SpinFamily.key(), Map.of("us", 1), QUICK);
        assertEquals(Status.CRASH, out.status());
        assertTrue(out.detail().contains("/nonexistent/java"), out.detail());
    }

    @Test
    void whatTheJvmPrintsOnStdoutBeforeTheHelloIsSkipped() {
        // PrintFlagsFinal writes some 800 lines to stdout before main: before, the first was taken for a bad hello.
        WorkerProcess wp = (WorkerProcess) WorkerCommand.current().withJvmArgs("-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+PrintFlagsFinal",
                "-D" + FamilyLookup.PROPERTY + "=" + SpinFamily.class.getName()).newWorker();
        try {
            CandidateOutcome first = wp.measure(SpinFamily.key(), Map.of("us", 1), QUICK);
            assertEquals(Status.OK, first.status(), first.detail());
            long pid = wp.handle().pid();
            CandidateOutcome second = wp.measure(SpinFamily.key(), Map.of("us", 1), QUICK);
            assertEquals(Status.OK, second.status(), second.detail());
            assertEquals(pid, wp.handle().pid(), "one worker served both");
        } finally {
            wp.close();
        }
    }

    @Test
    void workerOnOtherVectorsThanTheAgentsIsACrash() {
        assumeTrue(VectorWidth.bits() > 128, "this JVM's kernels are 128 bits already");
        WorkerCommand narrower = WorkerCommand.current().withJvmArgs("-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-D" + VectorWidth.PROPERTY + "=128",
                "-D" + FamilyLookup.PROPERTY + "=" + SpinFamily.class.getName());
        CandidateOutcome out = narrower.newWorker().measure(SpinFamily.key(), Map.of("us", 1), QUICK);
        assertEquals(Status.CRASH, out.status());
        assertTrue(out.detail().contains("worker runs 128-bit vector kernels"), out.detail());
        CandidateOutcome same = ((WorkerProcess) WorkerCommand.current().withJvmArgs("-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-D" + FamilyLookup.PROPERTY + "=" + SpinFamily.class.getName()).newWorker()).measure(SpinFamily.key(), Map.of("us", 1), QUICK);
        assertEquals(Status.OK, same.status(), same.detail());
    }

    @Test
    void aWorkerCommandedToANarrowerWidthIsHeldToThatWidth() {
        assumeTrue(VectorWidth.bits() > 128, "this JVM's kernels are 128 bits already");
        // A bench's narrow worker: started at 128 bits and expected to say so, so it measures.
        WorkerCommand narrow = WorkerCommand.current().withJvmArgs("-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-D" + FamilyLookup.PROPERTY + "=" + SpinFamily.class.getName()).atVectorBits(128);
        assertEquals(128, narrow.vectorBits());
        CandidateOutcome out = narrow.newWorker().measure(SpinFamily.key(), Map.of("us", 1), QUICK);
        assertEquals(Status.OK, out.status(), out.detail());
        // Expecting 128 bits of a worker that runs this JVM's width is as much a crash as the reverse.
        WorkerCommand mislabelled = new WorkerCommand(narrow.java(), narrow.classpath(),
                narrow.jvmArgs().stream().filter(a -> !a.startsWith("-D" + VectorWidth.PROPERTY)).toList(), narrow.startupTimeoutMs(), 128);
        CandidateOutcome wrong = mislabelled.newWorker().measure(SpinFamily.key(), Map.of("us", 1), QUICK);
        assertEquals(Status.CRASH, wrong.status());
        assertTrue(wrong.detail().contains("worker runs " + VectorWidth.bits() + "-bit vector kernels"), wrong.detail());
    }
}
