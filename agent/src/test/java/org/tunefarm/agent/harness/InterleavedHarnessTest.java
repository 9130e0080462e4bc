package org.tunefarm.agent.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;

class InterleavedHarnessTest {

    private static final MeasureSettings FAST = new MeasureSettings(4, 1.0, 1000, 0.05, 30_000, 1);

    /** Candidates named by "id" whose calls take "ns" of fake time each, and a log of which ran. */
    static final class NamedFamily implements KernelFamily {
        final AtomicLong clock = new AtomicLong(1_000_000_000L);
        final List<String> log = new ArrayList<>();
        long slowdownNs;

        @Override public KernelSpec spec() {
            return new KernelSpec() {
                @Override public String op() { return "named"; }
                @Override public List<String> dimensions() { return List.of("n"); }
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
            String id = (String) params.get("id");
            long ns = ((Number) params.get("ns")).longValue();
            if (ns < 0) throw new IllegalArgumentException("negative cost");
            return new Candidate() {
                @Override public void run() {
                    log.add(id);
                    clock.addAndGet(ns + slowdownNs);
                }

                @Override public double maxError() { return 0; }
            };
        }
    }

    static final KernelKey KEY = new KernelKey("named", Map.of("n", 1), "fp32");

    private static Map<String, Object> p(String id, long ns) {
        return Map.of("id", id, "ns", ns);
    }

    @Test
    void finalistsAreSampledRoundRobinAfterEachIsWarm() {
        NamedFamily f = new NamedFamily();
        List<CandidateOutcome> out = new WarmHarness(f.clock::get).measureInterleaved(f, KEY,
                List.of(p("A", 10_000), p("B", 20_000), p("C", 40_000)), FAST);
        assertEquals(List.of(10_000.0, 20_000.0, 40_000.0), out.stream().map(o -> o.stats().medianNs()).toList());
        // Collapse runs of the same candidate: the sampling phase is A B C A B C ..., minSamples times.
        List<String> runs = new ArrayList<>();
        for (String id : f.log) if (runs.isEmpty() || !runs.get(runs.size() - 1).equals(id)) runs.add(id);
        List<String> tail = runs.subList(runs.size() - 3 * FAST.minSamples(), runs.size());
        for (int i = 0; i < tail.size(); i++) assertEquals(List.of("A", "B", "C").get(i % 3), tail.get(i), "round robin: " + runs);
    }

    @Test
    void aSlowSpellHitsEveryFinalistAlike() {
        // The machine slows down by 5 µs per call halfway through sampling; interleaved, both
        // equal candidates see it equally, so neither is ranked ahead by luck of order.
        NamedFamily f = new NamedFamily();
        WarmHarness h = new WarmHarness(() -> {
            if (f.log.size() > 2_000) f.slowdownNs = 5_000;
            return f.clock.get();
        });
        List<CandidateOutcome> out = h.measureInterleaved(f, KEY, List.of(p("A", 10_000), p("B", 10_000)), FAST.withMinSamples(8));
        double a = out.get(0).stats().medianNs(), b = out.get(1).stats().medianNs();
        assertTrue(Math.abs(a - b) / Math.min(a, b) < 0.35, a + " vs " + b);
    }

    @Test
    void aFailingFinalistDoesNotStopTheOthers() {
        NamedFamily f = new NamedFamily();
        List<CandidateOutcome> out = new WarmHarness(f.clock::get).measureInterleaved(f, KEY, List.of(p("A", 10_000), p("X", -1), p("C", 30_000)), FAST);
        assertEquals(Status.OK, out.get(0).status());
        assertEquals(Status.INVALID, out.get(1).status());
        assertEquals(Status.OK, out.get(2).status());
        assertEquals(30_000.0, out.get(2).stats().medianNs());
    }
}
