package org.tunefarm.agent.harness;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;

/**
 * A family whose calls take simulated time: call number n (from 1) advances the fake clock by
 * {@code cost(n)} ns. With the harness timed by the same clock, its statistics are exact.
 */
final class FakeClockFamily implements KernelFamily {

    final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final LongUnaryOperator cost;
    private long calls;

    FakeClockFamily(LongUnaryOperator cost) {
        this.cost = cost;
    }

    static final KernelKey KEY = new KernelKey("fake-clock", Map.of("n", 1), "fp32");

    long calls() { return calls; }

    @Override public KernelSpec spec() {
        return new KernelSpec() {
            @Override public String op() { return "fake-clock"; }
            @Override public java.util.List<String> dimensions() { return java.util.List.of("n"); }
            @Override public org.tunefarm.space.SearchSpace space(KernelKey key, int cores) { throw new UnsupportedOperationException(); }
            @Override public Map<String, Object> defaultConfig(KernelKey key, int cores) { return Map.of(); }
            @Override public double flops(KernelKey key) { return 0; }
        };
    }

    @Override public Workload workload(KernelKey key, long seed) {
        return new Workload() {
            @Override public KernelKey key() { return key; }
            @Override public double errorBound() { return 0; }
        };
    }

    @Override public Candidate candidate(Workload workload, Map<String, Object> params) {
        return new Candidate() {
            @Override public void run() { clock.addAndGet(cost.applyAsLong(++calls)); }
            @Override public double maxError() { return 0; }
        };
    }
}
