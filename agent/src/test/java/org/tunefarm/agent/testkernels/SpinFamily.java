package org.tunefarm.agent.testkernels;

import java.util.Map;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;

/**
 * A sleep-like family that busy-waits {@code params.us} microseconds per call, so each call lasts
 * at least that long (a sleep may wake early; a spin on nanoTime cannot). Always correct.
 */
public final class SpinFamily implements KernelFamily {

    public static final String OP = "test-spin";

    public static KernelKey key() {
        return new KernelKey(OP, Map.of("n", 1), "fp32");
    }

    @Override public KernelSpec spec() { return new TestSpec(OP); }

    @Override public Workload workload(KernelKey key, long seed) {
        return new Workload() {
            @Override public KernelKey key() { return key; }
            @Override public double errorBound() { return 0; }
        };
    }

    @Override public Candidate candidate(Workload workload, Map<String, Object> params) {
        long ns = ((Number) params.get("us")).longValue() * 1000;
        if (ns <= 0) throw new IllegalArgumentException("us must be positive");
        return new Candidate() {
            @Override public void run() {
                long end = System.nanoTime() + ns;
                while (System.nanoTime() < end) Thread.onSpinWait();
            }

            @Override public double maxError() { return 0; }
        };
    }
}
