package org.tunefarm.agent.harness;

import org.tunefarm.measure.MeasureSettings;
import java.util.Map;
import org.tunefarm.kernel.KernelKey;

/**
 * Where candidates run: in a supervised worker process ({@code WorkerCommand.newWorker()}) or, for
 * tests and trusted kernels, in this JVM. A worker serves batches of one kernel and shape and is
 * then closed ({@link KeptWorker}), so JIT profiles of one kernel do not slow the next. Not
 * thread-safe.
 */
public interface Worker extends AutoCloseable {

    /**
     * Measures one candidate. Timeouts, crashes and wrong answers come back as the outcome's
     * status; a worker that died is restarted for the next call.
     */
    CandidateOutcome measure(KernelKey key, Map<String, Object> params, MeasureSettings settings);

    /**
     * Measures finalists interleaved (see {@link Harness#measureInterleaved}); one outcome per
     * candidate, in order. A worker that died answers CRASH for all of them.
     */
    java.util.List<CandidateOutcome> measureInterleaved(KernelKey key, java.util.List<Map<String, Object>> params, MeasureSettings settings);

    /**
     * Runs one candidate without pause for {@code seconds} ({@link Harness#sustain}); its settings'
     * timeout is stretched by the run ({@link #forSustained}). A worker that cannot run a kernel
     * sustained measures it as usual, and the outcome has no sustained time.
     */
    default CandidateOutcome sustain(KernelKey key, Map<String, Object> params, MeasureSettings settings, double seconds) {
        return measure(key, params, settings).noting("this kind of kernel cannot run sustained: measured as usual");
    }

    /**
     * The settings of a sustained run: the candidate's own timeout plus the run, allowing for the
     * share of the timeout the harness keeps in hand, capped at the hour a timeout may be.
     */
    static MeasureSettings forSustained(MeasureSettings settings, double seconds) {
        long run = (long) Math.ceil(seconds * 1000 / WarmHarness.BUDGET_SHARE);
        return settings.withTimeoutMs(Math.min(3_600_000L, settings.timeoutMs() + run));
    }

    /** Stops the worker and whatever it started. */
    @Override void close();

    /** A worker that runs candidates in this JVM: nothing protects the caller from a hung kernel. */
    static Worker inProcess(FamilyLookup families) {
        Harness harness = Harness.create();
        return new Worker() {
            @Override public CandidateOutcome measure(KernelKey key, Map<String, Object> params, MeasureSettings settings) {
                try {
                    return harness.measure(families.family(key.op()), key, params, settings);
                } catch (IllegalArgumentException unknownFamily) {
                    return CandidateOutcome.failed(org.tunefarm.measure.Status.CRASH, unknownFamily.getMessage());
                }
            }

            @Override public java.util.List<CandidateOutcome> measureInterleaved(KernelKey key, java.util.List<Map<String, Object>> params, MeasureSettings settings) {
                try {
                    return harness.measureInterleaved(families.family(key.op()), key, params, settings);
                } catch (IllegalArgumentException unknownFamily) {
                    return java.util.Collections.nCopies(params.size(), CandidateOutcome.failed(org.tunefarm.measure.Status.CRASH, unknownFamily.getMessage()));
                }
            }

            @Override public CandidateOutcome sustain(KernelKey key, Map<String, Object> params, MeasureSettings settings, double seconds) {
                try {
                    return harness.sustain(families.family(key.op()), key, params, forSustained(settings, seconds), seconds);
                } catch (IllegalArgumentException unknownFamily) {
                    return CandidateOutcome.failed(org.tunefarm.measure.Status.CRASH, unknownFamily.getMessage());
                }
            }

            @Override public void close() {}
        };
    }
}
