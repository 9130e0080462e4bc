package org.tunefarm.agent.harness;

import org.tunefarm.measure.MeasureSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.KernelThreads;
import org.tunefarm.agent.kernels.KernelFamily.Candidate;
import org.tunefarm.agent.kernels.KernelFamily.Workload;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;

/**
 * The harness: verify, calibrate, warm up until steady, sample. Timed by an injectable clock.
 * A {@link RecordedCandidate} is the exception: its recorded outcome is returned untouched.
 */
final class WarmHarness implements Harness {

    /** The harness gives up at this share of the timeout, so it answers before the supervisor kills it. */
    static final double BUDGET_SHARE = 0.8;
    /** Warm-up is steady when this many consecutive samples agree. */
    static final int STEADY_WINDOW = 3;
    private static final int MAX_CALLS_PER_SAMPLE = 1 << 30;
    /** Extra samples, as a share of minSamples, that may replace samples set aside as interference. */
    static final double MAX_EXTRA_SHARE = 1.0;

    /** Of a sustained run, the last share whose calls give its time per call: the run is hot by then. */
    static final double SUSTAINED_WINDOW = 0.2;

    /**
     * A sample is set aside as preempted when the kernel's threads waited, runnable, for a CPU
     * for more than this share of its time: another process held a core (a timeslice is
     * milliseconds); a team's wake-ups cost microseconds, far below.
     */
    static final double PREEMPTED_SHARE = 0.05;
    /**
     * ...and for at least this long, a timeslice: below it the wait is the scheduler's own noise
     * (wake-ups of a kernel that parks, a migration: tens of microseconds each), which short
     * samples would otherwise count as preemption; a neighbour that takes the core holds it a
     * millisecond or more.
     */
    static final long PREEMPTED_MIN_NS = 1_000_000;

    private final LongSupplier nanoTime;
    /** Run delay of the kernel's threads so far, ns ({@link KernelThreads}); negative when unknown. */
    private final LongSupplier runDelayNs;
    /** The JVM's collections: a sample during one is set aside; garbage is collected before a candidate when there is enough. */
    private final Garbage garbage;
    private final WorkloadCache workloads = new WorkloadCache();
    /** Epoch ms at {@link #anchorNs}: sample windows are reported in the wall time every process shares. */
    private final double anchorMs;
    private final long anchorNs;

    WarmHarness(LongSupplier nanoTime) {
        this(nanoTime, () -> -1);
    }

    /** @param runDelayNs the kernel threads' run delay so far, ns; negative when unknown (no sample is then judged preempted) */
    WarmHarness(LongSupplier nanoTime, LongSupplier runDelayNs) {
        this(nanoTime, runDelayNs, Garbage.NONE);
    }

    WarmHarness(LongSupplier nanoTime, LongSupplier runDelayNs, Garbage garbage) {
        this.nanoTime = nanoTime;
        this.runDelayNs = runDelayNs;
        this.garbage = garbage;
        java.time.Instant now = java.time.Instant.now();
        this.anchorNs = nanoTime.getAsLong();
        this.anchorMs = now.getEpochSecond() * 1000.0 + now.getNano() / 1e6;
    }

    private double epochMs(long ns) {
        return anchorMs + (ns - anchorNs) / 1e6;
    }

    @Override
    public CandidateOutcome measure(KernelFamily family, KernelKey key, Map<String, Object> params, MeasureSettings settings) {
        return run(family, key, params, settings, (run, recorded) -> recorded != null ? recorded.recorded() : run.measure());
    }

    @Override
    public CandidateOutcome sustain(KernelFamily family, KernelKey key, Map<String, Object> params, MeasureSettings settings, double seconds) {
        return run(family, key, params, settings,
                (run, recorded) -> recorded != null ? recorded.recorded().noting("a recording cannot run sustained") : run.sustain(seconds));
    }

    /** How one built candidate is measured: {@code recorded} is non-null for a recording, which is not run. */
    private interface Measuring {
        CandidateOutcome apply(Run run, RecordedCandidate recorded);
    }

    /** Builds the workload and the candidate (an invalid one is INVALID, a throwing one CRASH), measures it, closes it. */
    private CandidateOutcome run(KernelFamily family, KernelKey key, Map<String, Object> params, MeasureSettings settings, Measuring measuring) {
        long start = nanoTime.getAsLong();
        Workload workload;
        try {
            workload = workloads.get(family, key, settings.seed());
        } catch (IllegalArgumentException e) {
            return CandidateOutcome.failed(Status.INVALID, "workload: " + e.getMessage());
        } catch (Throwable t) {
            return CandidateOutcome.failed(Status.CRASH, "workload: " + CandidateOutcome.describe(t));
        }
        Candidate candidate;
        try {
            candidate = family.candidate(workload, params);
        } catch (IllegalArgumentException e) {
            return CandidateOutcome.failed(Status.INVALID, e.getMessage());
        } catch (Throwable t) {
            return CandidateOutcome.failed(Status.CRASH, CandidateOutcome.describe(t));
        }
        try (candidate) {
            if (candidate instanceof RecordedCandidate r) return measuring.apply(null, r);
            return measuring.apply(new Run(candidate, workload.errorBound(), settings, start), null);
        } catch (Throwable t) {
            // close() threw after a complete measurement; the kernel still misbehaved.
            return CandidateOutcome.failed(Status.CRASH, "close: " + CandidateOutcome.describe(t));
        }
    }

    /**
     * Finalists measured interleaved: each is built, verified and warmed up, then samples are
     * taken round-robin (A B C A B C ...), so a slow spell of the machine lands on all of them
     * alike instead of on whichever ran during it. Outcomes in the order of {@code params}.
     */
    @Override
    public List<CandidateOutcome> measureInterleaved(KernelFamily family, KernelKey key, List<Map<String, Object>> params, MeasureSettings settings) {
        long start = nanoTime.getAsLong();
        // Each candidate waits while the others sample: its budget covers the whole group.
        MeasureSettings group = settings.withTimeoutMs(Math.min(3_600_000L, settings.timeoutMs() * Math.max(1, params.size())));
        CandidateOutcome[] out = new CandidateOutcome[params.size()];
        Run[] runs = new Run[params.size()];
        List<Candidate> open = new ArrayList<>();
        try {
            Workload workload;
            try {
                workload = workloads.get(family, key, settings.seed());
            } catch (Throwable t) {
                java.util.Arrays.fill(out, CandidateOutcome.failed(t instanceof IllegalArgumentException ? Status.INVALID : Status.CRASH,
                        "workload: " + CandidateOutcome.describe(t)));
                return List.of(out);
            }
            for (int i = 0; i < runs.length; i++) {
                try {
                    Candidate c = family.candidate(workload, params.get(i));
                    open.add(c);
                    if (c instanceof RecordedCandidate r) { // a recording has nothing to interleave
                        out[i] = r.recorded();
                        continue;
                    }
                    runs[i] = new Run(c, workload.errorBound(), group, start);
                    out[i] = runs[i].prepare();
                } catch (IllegalArgumentException e) {
                    out[i] = CandidateOutcome.failed(Status.INVALID, e.getMessage());
                } catch (Throwable t) {
                    out[i] = CandidateOutcome.failed(Status.CRASH, CandidateOutcome.describe(t));
                }
            }
            for (boolean more = true; more; ) {
                more = false;
                for (int i = 0; i < runs.length; i++) {
                    if (out[i] != null || !runs[i].wantsSample()) continue;
                    out[i] = runs[i].takeSample();
                    more = true;
                }
            }
            for (int i = 0; i < runs.length; i++) if (out[i] == null) out[i] = runs[i].result();
            return List.of(out);
        } finally {
            for (Candidate c : open) {
                try {
                    c.close();
                } catch (Throwable ignored) {
                    // the measurement is complete; a failing close is the kernel's, not the group's
                }
            }
        }
    }

    /** One candidate's measurement; holds the running state of its phases. */
    private final class Run {
        private final Candidate candidate;
        private final double errorBound;
        private final MeasureSettings settings;
        private final long start;
        private final long budgetNs;
        private final long minSampleNs;
        private double error = Double.NaN;
        private int calls;
        private double[] samples;
        private int taken;
        /** Samples set aside because another process preempted the kernel's threads during them. */
        private int preempted;
        /** Samples set aside because the JVM collected garbage during them. */
        private int collected;
        private long firstSampleNs;
        private long lastSampleNs;

        Run(Candidate candidate, double errorBound, MeasureSettings settings, long start) {
            this.candidate = candidate;
            this.errorBound = errorBound;
            this.settings = settings;
            this.start = start;
            this.budgetNs = (long) (settings.timeoutMs() * 1e6 * BUDGET_SHARE);
            this.minSampleNs = (long) (settings.minSampleMs() * 1e6);
            KernelThreads.register(); // the thread that runs share 0 of every call
        }

        CandidateOutcome measure() {
            CandidateOutcome failed = prepare();
            while (failed == null && wantsSample()) failed = takeSample();
            return failed != null ? failed : result();
        }

        /** Verifies, calibrates and warms up; null when ready to sample, else how it failed. */
        CandidateOutcome prepare() {
            CandidateOutcome wrong = verify();
            if (wrong != null) return wrong;
            try {
                return warmUp();
            } catch (Throwable t) {
                return CandidateOutcome.failed(Status.CRASH, error, CandidateOutcome.describe(t));
            }
        }

        /** The first, untimed call, checked against the reference; null when right. */
        private CandidateOutcome verify() {
            try {
                candidate.run();
                error = candidate.maxError();
            } catch (Throwable t) {
                return CandidateOutcome.failed(Status.CRASH, CandidateOutcome.describe(t));
            }
            // NaN compares false with everything, so it is checked explicitly: a NaN output is wrong.
            if (Double.isNaN(error) || error > errorBound) {
                return CandidateOutcome.failed(Status.WRONG_ANSWER, error, "max error " + error + " exceeds bound " + errorBound);
            }
            return null;
        }

        /**
         * Runs the candidate without pause for {@code seconds} (verification and calibration
         * included: the device heats all along), in blocks of at least minSampleMs; its sustained
         * time per call is that of the blocks in the last {@link #SUSTAINED_WINDOW} of the run,
         * when the device has settled, total time over total calls (a throughput, not a median),
         * and the sample window is theirs. The statistics are over the first minSamples blocks,
         * the burst from a cool board, so that the record's median still means what a latency
         * measurement's does.
         */
        CandidateOutcome sustain(double seconds) {
            long runStart = nanoTime.getAsLong();
            CandidateOutcome wrong = verify();
            if (wrong != null) return wrong;
            long runNs = (long) (seconds * 1e9);
            double[] ends = new double[1024];
            double[] perCall = new double[1024];
            int blocks = 0;
            try {
                calls = 1;
                long t = block(calls);
                while (t < minSampleNs && calls < MAX_CALLS_PER_SAMPLE) {
                    if (overBudget()) return overBudget("calibrating a sustained run, " + calls + " calls per sample", null);
                    calls *= 2;
                    t = block(calls);
                }
                for (long now = nanoTime.getAsLong(); now - runStart < runNs; now = nanoTime.getAsLong()) {
                    if (overBudget()) return overBudget("running sustained, " + blocks + " blocks", java.util.Arrays.copyOf(perCall, blocks));
                    if (blocks == ends.length) {
                        ends = java.util.Arrays.copyOf(ends, blocks * 2);
                        perCall = java.util.Arrays.copyOf(perCall, blocks * 2);
                    }
                    perCall[blocks] = (double) block(calls) / calls;
                    ends[blocks++] = nanoTime.getAsLong();
                }
            } catch (Throwable t) {
                return CandidateOutcome.failed(Status.CRASH, error, CandidateOutcome.describe(t));
            }
            if (blocks == 0) return CandidateOutcome.failed(Status.TIMEOUT, error, "a sustained run of " + seconds + " s ended before its first timed block");
            double windowStart = runStart + (ends[blocks - 1] - runStart) * (1 - SUSTAINED_WINDOW);
            int first = blocks - 1;
            while (first > 0 && ends[first - 1] > windowStart) first--;
            double[] window = java.util.Arrays.copyOfRange(perCall, first, blocks);
            double sum = 0;
            for (double v : window) sum += v;
            long windowFromNs = (long) (ends[first] - window[0] * calls);
            CandidateOutcome ok = result(java.util.Arrays.copyOf(perCall, Math.min(blocks, settings.minSamples())));
            if (ok.status() != Status.OK) return ok;
            return ok.sampled(new SampleWindow(epochMs(windowFromNs), epochMs((long) ends[blocks - 1]), (long) window.length * calls), null)
                    .sustained(sum / window.length);
        }

        private CandidateOutcome warmUp() {
            // The previous candidates' garbage is collected now, not during this one's samples.
            garbage.collectIfWorthIt();
            long warmupStart = nanoTime.getAsLong();
            // Calibrate: double the calls per sample until one sample lasts minSampleMs.
            calls = 1;
            long t = block(calls);
            while (t < minSampleNs && calls < MAX_CALLS_PER_SAMPLE) {
                if (overBudget()) return overBudget("calibrating, " + calls + " calls per sample", null);
                calls *= 2;
                t = block(calls);
            }
            // Warm up until the per-call time is steady; when the JIT makes samples shorter than
            // minSampleMs, calibrate again so the samples that count are long enough.
            double[] window = new double[STEADY_WINDOW];
            int filled = 0;
            long maxWarmupNs = settings.maxWarmupMs() * 1_000_000L;
            while (nanoTime.getAsLong() - warmupStart < maxWarmupNs) {
                if (overBudget()) return overBudget("warming up", null);
                t = block(calls);
                if (t < minSampleNs && calls < MAX_CALLS_PER_SAMPLE) {
                    calls *= 2;
                    filled = 0;
                    continue;
                }
                window[filled % STEADY_WINDOW] = (double) t / calls;
                filled++;
                if (filled >= STEADY_WINDOW && steady(window)) break;
            }
            int min = settings.minSamples();
            samples = new double[min + (int) Math.ceil(min * MAX_EXTRA_SHARE)];
            return null;
        }

        /**
         * Whether another sample is due: minSamples, plus one for each sample set aside as
         * interference (another process's time slice), up to {@link #MAX_EXTRA_SHARE} x
         * minSamples extra, so a neighbour's burst costs time rather than evidence.
         */
        boolean wantsSample() {
            int min = settings.minSamples();
            if (taken < min) return true;
            return taken < samples.length && Stats.withoutInterference(java.util.Arrays.copyOf(samples, taken), calls).samples() < min;
        }

        /**
         * One sample; null when taken (or set aside as preempted: the kernel's threads waited for a
         * CPU for over {@link #PREEMPTED_SHARE} of it and at least {@link #PREEMPTED_MIN_NS}, up to
         * {@link #MAX_EXTRA_SHARE} x minSamples
         * such, after which samples are kept and the fence judges them), else the timeout that stopped it.
         */
        CandidateOutcome takeSample() {
            if (overBudget()) return overBudget("sampling, " + taken + " of " + settings.minSamples() + " samples", java.util.Arrays.copyOf(samples, taken));
            try {
                long delayBefore = runDelayNs.getAsLong();
                long collectionsBefore = garbage.collections();
                long t0 = nanoTime.getAsLong();
                if (taken == 0 && preempted == 0 && collected == 0) firstSampleNs = t0;
                long ns = block(calls);
                lastSampleNs = nanoTime.getAsLong();
                long delayAfter = runDelayNs.getAsLong();
                boolean mayReplace = preempted + collected < settings.minSamples() * MAX_EXTRA_SHARE;
                if (garbage.collections() != collectionsBefore && mayReplace) {
                    collected++;
                    return null;
                }
                long waited = delayAfter - delayBefore;
                if (delayBefore >= 0 && waited > PREEMPTED_SHARE * ns && waited >= PREEMPTED_MIN_NS && mayReplace) {
                    preempted++;
                    return null;
                }
                samples[taken++] = (double) ns / calls;
                return null;
            } catch (Throwable t) {
                return CandidateOutcome.failed(Status.CRASH, error, CandidateOutcome.describe(t));
            }
        }

        /**
         * The samples, once the output is checked again: the first run, checked before warm-up, may
         * have been interpreted, while the samples ran the JIT's code (the Vector API's intrinsics
         * on this CPU), which must be as right.
         */
        CandidateOutcome result() {
            double[] ordered = java.util.Arrays.copyOf(samples, taken);
            CandidateOutcome ok = result(ordered);
            if (ok.status() != Status.OK) return ok;
            if (preempted > 0) {
                ok = new CandidateOutcome(ok.status(), ok.stats().settingAside(preempted), ok.maxError(), ok.detail())
                        .noting(preempted + " sample(s) set aside: another process preempted the kernel's threads (run delay)");
            }
            if (collected > 0) {
                ok = new CandidateOutcome(ok.status(), ok.stats().settingAside(collected), ok.maxError(), ok.detail())
                        .noting(collected + " sample(s) set aside: the JVM collected garbage during them");
            }
            // The window runs from the first sample to the last, those set aside included: every
            // call that ran in it drew the power it is charged with.
            long ran = (long) (taken + preempted + collected) * calls;
            return ok.sampled(new SampleWindow(epochMs(firstSampleNs), epochMs(lastSampleNs), ran), DriftCheck.verdict(ordered));
        }

        /** The outcome over these samples, once the output is checked again. */
        private CandidateOutcome result(double[] timed) {
            double last;
            try {
                last = candidate.maxError();
            } catch (Throwable t) {
                return CandidateOutcome.failed(Status.CRASH, error, CandidateOutcome.describe(t));
            }
            if (Double.isNaN(last) || last > errorBound) {
                return CandidateOutcome.failed(Status.WRONG_ANSWER, last, "max error " + last + " after warm-up exceeds bound "
                        + errorBound + " (the first run's was " + error + ")");
            }
            return CandidateOutcome.ok(Stats.withoutInterference(timed, calls), Math.max(error, last));
        }

        private long block(int calls) {
            long t0 = nanoTime.getAsLong();
            for (int i = 0; i < calls; i++) candidate.run();
            return nanoTime.getAsLong() - t0;
        }

        private boolean steady(double[] window) {
            double min = Double.MAX_VALUE, max = 0;
            for (double v : window) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            return max - min <= settings.steadyTolerance() * min;
        }

        private boolean overBudget() {
            return nanoTime.getAsLong() - start > budgetNs;
        }

        private CandidateOutcome overBudget(String phase, double[] partial) {
            String evidence = partial == null || partial.length == 0 ? ""
                    : String.format(java.util.Locale.ROOT, "; median so far %.0f ns per call", Stats.of(partial, 1).medianNs());
            return CandidateOutcome.failed(Status.TIMEOUT, error,
                    "harness budget of " + (long) (budgetNs / 1e6) + " ms spent while " + phase + evidence);
        }
    }
}
