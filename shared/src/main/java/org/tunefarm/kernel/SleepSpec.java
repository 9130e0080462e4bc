package org.tunefarm.kernel;

import java.util.List;
import java.util.Map;
import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/**
 * A kernel whose run time is a known function of its parameters: it sleeps. Farm tests and
 * scale runs use it to exercise dispatch without spending CPU, and to check that the farm finds
 * the known optimum ({@link #OPTIMUM}).
 *
 * <p>Time of one call: {@code unitUs * (1 + |a - 5| + |b - 11| + (mode == "slow" ? 3 : 0))} µs,
 * for a shape {@code unitUs} (default 100).
 */
public final class SleepSpec implements KernelSpec {

    public static final Map<String, Object> OPTIMUM = Map.of("a", 5, "b", 11, "mode", "fast");

    @Override public String op() { return "sleep"; }

    @Override public List<String> dimensions() { return List.of("unitUs"); }

    @Override public SearchSpace space(KernelKey key, int cores) {
        return SearchSpace.of(List.of(
                Parameter.ints("a", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                Parameter.ints("b", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                Parameter.strings("mode", "slow", "fast")),
                List.of("a + b <= 28"));
    }

    @Override public Map<String, Object> defaultConfig(KernelKey key, int cores) {
        return Map.of("a", 0, "b", 0, "mode", "fast");
    }

    @Override public double flops(KernelKey key) { return 0; }

    /** The time one call sleeps, in microseconds. */
    public static long sleepMicros(KernelKey key, Map<String, Object> params) {
        int a = ((Number) params.get("a")).intValue();
        int b = ((Number) params.get("b")).intValue();
        int units = 1 + Math.abs(a - 5) + Math.abs(b - 11) + ("slow".equals(params.get("mode")) ? 3 : 0);
        return (long) key.dim("unitUs") * units;
    }
}
