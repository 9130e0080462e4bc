package org.tunefarm.kernel;

import java.util.List;
import java.util.Map;
import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/**
 * A simulated kernel on a simulated heating device ({@link HeatModel}): its speed depends on the
 * device's temperature, which its own work raises. Tests and {@code tunefarm bench thermal} use it
 * to exercise cooldowns, throttle detection and the sustained objective without a hot board.
 *
 * <p>A candidate is a {@code width} (1, 2, 4, 8) and a {@code layout} ({@code rows}, {@code tiles}).
 * One call at the full clock takes {@code unitUs / speed} µs, with {@code speed = width^0.8}
 * ({@code x 1.2} for tiles); its dynamic power at the full clock is {@code 0.5 width^1.6} W
 * ({@code x 1.15} for tiles). Wider is faster but hotter, more than in proportion: on
 * {@link HeatModel#BENCH} the widest tiles win a burst, and the width-4 tiles win once hot.
 */
public final class HeatSimSpec implements KernelSpec {

    @Override public String op() { return "heatsim"; }

    @Override public List<String> dimensions() { return List.of("unitUs"); }

    @Override public SearchSpace space(KernelKey key, int cores) {
        return SearchSpace.of(List.of(Parameter.ints("width", 1, 2, 4, 8), Parameter.strings("layout", "rows", "tiles")), List.of());
    }

    @Override public Map<String, Object> defaultConfig(KernelKey key, int cores) {
        return Map.of("width", 1, "layout", "rows");
    }

    @Override public double flops(KernelKey key) { return 0; }

    /** Time of one call at the device's full clock, ns. */
    public static double callNsAtMax(KernelKey key, Map<String, Object> params) {
        return key.dim("unitUs") * 1000.0 / (Math.pow(width(params), 0.8) * (tiles(params) ? 1.2 : 1.0));
    }

    /** Dynamic power while running at the device's full clock, W. */
    public static double dynamicW(Map<String, Object> params) {
        return 0.5 * Math.pow(width(params), 1.6) * (tiles(params) ? 1.15 : 1.0);
    }

    /** Where the candidate settles when run without pause on {@code device}. */
    public static HeatModel.Steady steadyState(HeatModel device, KernelKey key, Map<String, Object> params) {
        return device.steadyState(callNsAtMax(key, params), dynamicW(params));
    }

    private static int width(Map<String, Object> params) {
        Object w = params.get("width");
        if (!(w instanceof Number n)) throw new IllegalArgumentException("width: a number is required, got " + w);
        return n.intValue();
    }

    private static boolean tiles(Map<String, Object> params) {
        Object l = params.get("layout");
        if (!"rows".equals(l) && !"tiles".equals(l)) throw new IllegalArgumentException("layout: rows or tiles, got " + l);
        return "tiles".equals(l);
    }
}
