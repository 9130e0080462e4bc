package org.tunefarm.agent.harness;

import org.tunefarm.measure.MeasureSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.testkernels.RogueFamily;
import org.tunefarm.agent.testkernels.SpinFamily;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;

class WarmHarnessTest {

    private static final MeasureSettings FAST = new MeasureSettings(5, 1.0, 1000, 0.05, 30_000, 1);

    private static CandidateOutcome measure(FakeClockFamily family, MeasureSettings settings) {
        return new WarmHarness(family.clock::get).measure(family, FakeClockFamily.KEY, Map.of(), settings);
    }

    @Test
    void slowFirstCallsDoNotReachTheSamples() {
        // 50 "interpreted" calls of 100 µs, then 10 µs forever.
        FakeClockFamily family = new FakeClockFamily(n -> n <= 50 ? 100_000 : 10_000);
        CandidateOutcome out = measure(family, FAST);
        assertEquals(Status.OK, out.status(), out.detail());
        Stats s = out.stats();
        assertEquals(10_000.0, s.minNs());
        assertEquals(10_000.0, s.medianNs());
        assertEquals(0.0, s.stdevNs());
        assertEquals(5, s.samples());
        assertTrue(s.callsPerSample() * 10_000L >= 1_000_000, "each sample lasts at least minSampleMs: " + s);
    }

    @Test
    void samplesDuringWhichTheKernelWaitedForACpuAreSetAsideAndReplaced() {
        // 10 µs per call throughout, so the fence sees nothing; but during the third sample the
        // kernel's threads waited 1 ms on the runqueue (schedstat's run delay, read before and
        // after each sample): that sample was preempted.
        FakeClockFamily family = new FakeClockFamily(n -> 10_000);
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        java.util.function.LongSupplier runDelay = () -> reads.incrementAndGet() <= 5 ? 0 : 1_000_000;
        CandidateOutcome out = new WarmHarness(family.clock::get, runDelay).measure(family, FakeClockFamily.KEY, Map.of(), FAST);
        assertEquals(Status.OK, out.status(), out.detail());
        Stats s = out.stats();
        assertEquals(1, s.outliers(), "one sample set aside: " + s);
        assertEquals(5, s.samples(), "and replaced: " + s);
        assertTrue(out.detail().contains("preempted"), out.detail());
        // The window spans the sample set aside too, and counts its calls: joules per call are
        // the window's energy over every call that ran in it (10 µs each here).
        assertEquals(6L * s.callsPerSample(), out.window().calls(), out.window().toString());
        assertEquals(10e-6, out.window().seconds() / out.window().calls(), 1e-9, out.window().toString());
        // Unknown run delay (not Linux) judges nothing.
        FakeClockFamily again = new FakeClockFamily(n -> 10_000);
        assertEquals(0, new WarmHarness(again.clock::get, () -> -1).measure(again, FakeClockFamily.KEY, Map.of(), FAST).stats().outliers());
    }

    @Test
    void samplesDuringWhichTheJvmCollectedGarbageAreSetAsideAndReplaced() {
        // 10 µs per call throughout, so neither the fence nor the run delay sees anything; but the
        // JVM's collection count moves across one sample: a collection paused it.
        FakeClockFamily family = new FakeClockFamily(n -> 10_000);
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        // Read twice per sample (before, after); the count moves between the 3rd sample's reads.
        Garbage garbage = new Garbage(() -> reads.incrementAndGet() <= 5 ? 7 : 8, () -> 0, () -> 1, () -> {});
        CandidateOutcome out = new WarmHarness(family.clock::get, () -> -1, garbage).measure(family, FakeClockFamily.KEY, Map.of(), FAST);
        assertEquals(Status.OK, out.status(), out.detail());
        Stats s = out.stats();
        assertEquals(1, s.outliers(), "one sample set aside: " + s);
        assertEquals(5, s.samples(), "and replaced: " + s);
        assertTrue(out.detail().contains("collected garbage"), out.detail());
    }

    @Test
    void aKernelPreemptedByARealNeighbourHasItsSamplesSetAside() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(java.nio.file.Path.of("/proc/thread-self/schedstat")), "Linux only");
        // More busy threads than cores: the kernel's thread waits on the runqueue for much of each sample.
        int spinners = Runtime.getRuntime().availableProcessors() + 1;
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.List<Thread> threads = new java.util.ArrayList<>();
        for (int i = 0; i < spinners; i++) {
            Thread t = new Thread(() -> { long x = 0; while (!stop.get()) x++; }, "neighbour-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        try {
            MeasureSettings s = new MeasureSettings(5, 20.0, 200, 0.5, 60_000, 1);
            CandidateOutcome out = Harness.create().measure(new SpinFamily(), SpinFamily.key(), Map.of("us", 200), s);
            assertEquals(Status.OK, out.status(), out.detail());
            assertTrue(out.stats().outliers() >= 1, "samples set aside for preemption: " + out.stats() + " " + out.detail());
            assertTrue(out.detail().contains("preempted"), out.detail());
        } finally {
            stop.set(true);
            for (Thread t : threads) t.join();
        }
    }

    @Test
    void callsPerSampleDoubleUntilASampleLastsMinSampleMs() {
        FakeClockFamily family = new FakeClockFamily(n -> 3_000);
        Stats s = measure(family, FAST).stats();
        // 256 calls of 3 µs last 0.768 ms < 1 ms; 512 last 1.536 ms.
        assertEquals(512, s.callsPerSample());
        assertEquals(3_000.0, s.medianNs());
    }

    @Test
    void samplesSlowedByInterferenceAreSetAsideAndReplaced() {
        // 10 µs per call, except a burst of 100 calls of 30 µs inside the first samples: another
        // process took the core for 2 ms.
        FakeClockFamily family = new FakeClockFamily(n -> n >= 900 && n < 1000 ? 30_000 : 10_000);
        CandidateOutcome out = measure(family, FAST);
        assertEquals(Status.OK, out.status(), out.detail());
        Stats s = out.stats();
        assertTrue(s.outliers() >= 1, "the burst was seen: " + s);
        assertTrue(s.samples() >= 5, "and replaced by extra samples: " + s);
        assertEquals(10_000.0, s.medianNs());
        assertEquals(0.0, s.cv());
    }

    @Test
    void extraSamplesAreCappedWhenInterferenceNeverStops() {
        // Every other sample is slow: half the samples stay outliers however many are taken.
        FakeClockFamily family = new FakeClockFamily(n -> n > 700 && (n / 128) % 2 == 0 ? 40_000 : 10_000);
        CandidateOutcome out = measure(family, FAST);
        assertEquals(Status.OK, out.status(), out.detail());
        Stats s = out.stats();
        assertTrue(s.samples() + s.outliers() <= FAST.minSamples() * (1 + WarmHarness.MAX_EXTRA_SHARE), "capped: " + s);
    }

    @Test
    void warmUpStopsAtItsCapWhenTimesNeverSettle() {
        SplittableRandom noise = new SplittableRandom(3);
        FakeClockFamily family = new FakeClockFamily(n -> 1_000 + noise.nextLong(20_000));
        long start = family.clock.get();
        MeasureSettings never = FAST.withSteadyTolerance(0).withMaxWarmupMs(200);
        CandidateOutcome out = measure(family, never);
        assertEquals(Status.OK, out.status(), out.detail());
        long elapsedMs = (family.clock.get() - start) / 1_000_000;
        assertTrue(elapsedMs >= 200, "warm-up ran to its cap: " + elapsedMs + " ms");
        assertTrue(elapsedMs < 200 + 50, "and stopped there: " + elapsedMs + " ms");
    }

    @Test
    void harnessGivesUpWhenFarOverItsAllowance() {
        FakeClockFamily family = new FakeClockFamily(n -> 100_000_000); // 100 ms a call
        CandidateOutcome out = measure(family, FAST.withMinSamples(20).withTimeoutMs(1000));
        assertEquals(Status.TIMEOUT, out.status());
        assertTrue(out.detail().contains("budget"), out.detail());
        assertEquals(0.0, out.maxError(), "it was verified before it ran out of time");
        assertTrue(family.calls() <= 10, "stopped at 80% of 1 s: " + family.calls() + " calls");
    }

    @Test
    void wrongAnswerIsDetectedAndNeverTimed() {
        RogueFamily family = new RogueFamily();
        CandidateOutcome out = Harness.create().measure(family, RogueFamily.key(), RogueFamily.params("wrong"), FAST);
        assertEquals(Status.WRONG_ANSWER, out.status());
        assertNull(out.stats());
        assertEquals(1.0, out.maxError());
        assertEquals(1, family.runs(), "only the verifying call ran");
    }

    @Test
    void nanOutputIsAWrongAnswer() {
        CandidateOutcome out = Harness.create().measure(new RogueFamily(), RogueFamily.key(), RogueFamily.params("nan"), FAST);
        assertEquals(Status.WRONG_ANSWER, out.status());
        assertTrue(out.maxError().isNaN());
    }

    @Test
    void exceptionIsACrashWithItsMessage() {
        CandidateOutcome out = Harness.create().measure(new RogueFamily(), RogueFamily.key(), RogueFamily.params("throw"), FAST);
        assertEquals(Status.CRASH, out.status());
        assertTrue(out.detail().contains("IllegalStateException: kernel fell over"), out.detail());
        assertNull(out.stats());
    }

    @Test
    void configurationRejectedByTheFamilyIsInvalid() {
        CandidateOutcome out = Harness.create().measure(new RogueFamily(), RogueFamily.key(), RogueFamily.params("invalid"), FAST);
        assertEquals(Status.INVALID, out.status());
        assertEquals("tile 7 does not divide n", out.detail());
    }

    @Test
    void workloadIsBuiltOncePerKeyAndSeed() {
        RogueFamily family = new RogueFamily();
        Harness harness = Harness.create();
        MeasureSettings quick = FAST.withMinSamples(1).withMaxWarmupMs(0);
        for (int i = 0; i < 3; i++) harness.measure(family, RogueFamily.key(), RogueFamily.params("ok"), quick);
        assertEquals(1, family.workloads());
        harness.measure(family, RogueFamily.key(), RogueFamily.params("ok"), quick.withSeed(2));
        assertEquals(2, family.workloads());
    }

    @Test
    void realClockSamplesAreNeverShorterThanTheKernel() {
        // Each call spins at least 200 µs, so no sample can be shorter however loaded the machine.
        MeasureSettings s = new MeasureSettings(5, 2.0, 200, 0.05, 30_000, 1);
        CandidateOutcome out = Harness.create().measure(new SpinFamily(), SpinFamily.key(), Map.of("us", 200), s);
        assertEquals(Status.OK, out.status(), out.detail());
        assertNotNull(out.stats());
        // On a loaded machine some samples may be set aside and replaced (up to minSamples more above
        // the fence, and minSamples more preempted); at least minSamples stay.
        assertTrue(out.stats().samples() >= 5 && out.stats().samples() + out.stats().outliers() <= 15, out.stats().toString());
        assertTrue(out.stats().minNs() >= 200_000, out.stats().toString());
        // 16 calls of at least 200 µs already exceed 2 ms, so calibration never goes further.
        assertTrue(out.stats().callsPerSample() <= 16, out.stats().toString());
    }

    @Test
    void aKernelThatGoesWrongOnceWarmIsAWrongAnswer() {
        // The first call may run interpreted; the samples run what the JIT made of it (on 17, or on
        // an ARM board, a different compiler than the one the kernels were tested on).
        CandidateOutcome out = Harness.create().measure(new RogueFamily(), RogueFamily.key(), RogueFamily.params("miscompiled"),
                FAST.withMinSamples(2).withMaxWarmupMs(0));
        assertEquals(Status.WRONG_ANSWER, out.status(), out.detail());
        assertEquals(0.5, out.maxError());
        assertTrue(out.detail().contains("after warm-up"), out.detail());
    }
}
