package org.tunefarm.agent.harness;

import org.tunefarm.measure.MeasureSettings;
import java.util.Map;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.KernelThreads;
import org.tunefarm.kernel.KernelKey;

/**
 * Measures one candidate honestly: verifies its answer on a first call that is never timed, warms
 * it up until the per-call time is steady, calibrates calls per sample so each sample dwarfs timer
 * error, then takes the samples. A harness keeps the last workload it built, so the candidates of
 * one batch share their inputs; it is not thread-safe.
 */
public interface Harness {

    /**
     * Measures the candidate {@code params} of {@code family} for {@code key}, on inputs generated
     * from {@code settings.seed()}. Never throws for a misbehaving kernel: the outcome says what happened.
     */
    CandidateOutcome measure(KernelFamily family, KernelKey key, Map<String, Object> params, MeasureSettings settings);

    /**
     * Measures several candidates together, interleaving their samples (A B C A B C ...) after
     * each is verified and warmed up: the way finalists are compared, so drift hits all alike.
     * Outcomes come back in the order of {@code params}.
     */
    java.util.List<CandidateOutcome> measureInterleaved(KernelFamily family, KernelKey key, java.util.List<Map<String, Object>> params, MeasureSettings settings);

    /**
     * Runs the candidate without pause for {@code seconds} and reports its time per call over the
     * last part of the run ({@link CandidateOutcome#sustainedNs()}), when a device that heats up
     * has settled: what it sustains, not what it bursts.
     */
    CandidateOutcome sustain(KernelFamily family, KernelKey key, Map<String, Object> params, MeasureSettings settings, double seconds);

    /** A harness timed by {@link System#nanoTime()}. */
    static Harness create() {
        return new WarmHarness(System::nanoTime, KernelThreads::runDelayNanos, Garbage.ofThisJvm());
    }
}
