package org.tunefarm.agent.harness;

import org.tunefarm.measure.MeasureSettings;
import java.util.Map;
import java.util.function.LongSupplier;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.KernelFamily.Candidate;
import org.tunefarm.agent.kernels.KernelFamily.Workload;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;

/** The harness: verify, calibrate, warm up until steady, sample. Timed by an injectable clock. */
final class WarmHarness implements Harness {

    /** The harness gives up at this share of the timeout, so it answers before the supervisor kills it. */
    static final double BUDGET_SHARE = 0.8;
    /** Warm-up is steady when this many consecutive samples agree. */
    static final int STEADY_WINDOW = 3;
    private static final int MAX_CALLS_PER_SAMPLE = 1 << 30;
    /** Extra samples, as a share of minSamples, that may replace samples set aside as interference. */
    static final double MAX_EXTRA_SHARE = 1.0;

    private final LongSupplier nanoTime;
    private final WorkloadCache workloads = new WorkloadCache();

    WarmHarness(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    @Override
    public CandidateOutcome measure(KernelFamily family, KernelKey key, Map<String, Object> params, MeasureSettings settings) {
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
            return new Run(candidate, workload.errorBound(), settings, start).measure();
        } catch (Throwable t) {
            // close() threw after a complete measurement; the kernel still misbehaved.
            return CandidateOutcome.failed(Status.CRASH, "close: " + CandidateOutcome.describe(t));
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

        Run(Candidate candidate, double errorBound, MeasureSettings settings, long start) {
            this.candidate = candidate;
            this.errorBound = errorBound;
            this.settings = settings;
            this.start = start;
            this.budgetNs = (long) (settings.timeoutMs() * 1e6 * BUDGET_SHARE);
            this.minSampleNs = (long) (settings.minSampleMs() * 1e6);
        }

        CandidateOutcome measure() {
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
            try {
                return timed();
            } catch (Throwable t) {
                return CandidateOutcome.failed(Status.CRASH, error, CandidateOutcome.describe(t));
            }
        }

        private CandidateOutcome timed() {
            // The previous candidate's garbage is collected now, not during this one's samples.
            System.gc();
            long warmupStart = nanoTime.getAsLong();
            // Calibrate: double the calls per sample until one sample lasts minSampleMs.
            int calls = 1;
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
            return sample(calls);
        }

        /**
         * Takes minSamples samples; for each one set aside as interference (another process's
         * time slice), one more, up to {@link #MAX_EXTRA_SHARE} x minSamples extra, so a
         * neighbour's burst costs time rather than evidence.
         */
        private CandidateOutcome sample(int calls) {
            int min = settings.minSamples();
            double[] samples = new double[min + (int) Math.ceil(min * MAX_EXTRA_SHARE)];
            int taken = 0;
            while (taken < min || (taken < samples.length && Stats.withoutInterference(java.util.Arrays.copyOf(samples, taken), calls).samples() < min)) {
                if (overBudget()) return overBudget("sampling, " + taken + " of " + min + " samples", java.util.Arrays.copyOf(samples, taken));
                samples[taken++] = (double) block(calls) / calls;
            }
            return CandidateOutcome.ok(Stats.withoutInterference(java.util.Arrays.copyOf(samples, taken), calls), error);
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
