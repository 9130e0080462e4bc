package org.tunefarm.kernel;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunefarm.space.SearchSpace;

/**
 * The declaration of a kernel family, known to both sides: its shape dimensions, its default
 * search space for a shape, the configuration a user gets without tuning, and how much work one
 * call does. The agent holds the implementation; the coordinator needs only this.
 */
public interface KernelSpec {

    /** Operation name, e.g. {@code gemm}. */
    String op();

    /** Shape dimension names in display order, e.g. M, N, K. */
    List<String> dimensions();

    /** Element types the family implements. */
    default List<String> dtypes() { return List.of("fp32"); }

    /** The family's default search space for a shape on a device with {@code cores} cores. */
    SearchSpace space(KernelKey key, int cores);

    /**
     * The space on a device whose kernels use {@code vectorBits}-bit vectors: where that is 0
     * (a JVM without the Vector API) only the variants that need no vectors, so a search never
     * proposes a candidate the device can only refuse.
     */
    default SearchSpace space(KernelKey key, int cores, int vectorBits) {
        return forVectors(space(key, cores), vectorBits);
    }

    /**
     * The space on a device whose kernels use {@code vectorBits}-bit vectors held in
     * {@code registers} vector registers ({@link org.tunefarm.device.DeviceProfile#vectorRegisters}):
     * as {@link #space(KernelKey, int, int)}, less the variants the register file cannot hold.
     */
    default SearchSpace space(KernelKey key, int cores, int vectorBits, int registers) {
        return forDevice(space(key, cores), vectorBits, registers);
    }

    /**
     * A space of this family, whole or narrowed by a sweep, for a device: {@link #forVectors}, and
     * for a family whose variants hold state in vector registers, less those that would not fit
     * in {@code registers}. Only validity changes, never a point's index, so a sweep's records
     * keep their meaning.
     */
    default SearchSpace forDevice(SearchSpace space, int vectorBits, int registers) {
        return forVectors(space, vectorBits);
    }

    /**
     * A space of this family, whole or narrowed by a sweep, less the variants that need vectors
     * when {@code vectorBits} is 0.
     *
     * @throws IllegalArgumentException when no variant would be left ({@link #runsWithoutVectors} says so first)
     */
    default SearchSpace forVectors(SearchSpace space, int vectorBits) {
        if (vectorBits > 0 || withoutVectors().isEmpty()) return space;
        Map<String, List<Object>> keep = new LinkedHashMap<>();
        for (var e : withoutVectors().entrySet()) {
            List<Object> left = space.parameter(e.getKey()).values().stream().filter(e.getValue()::contains).toList();
            if (left.isEmpty()) throw new IllegalArgumentException(e.getKey() + ": only " + space.parameter(e.getKey()).values() + ", which need the Vector API");
            keep.put(e.getKey(), left);
        }
        return space.narrow(keep, List.of());
    }

    /** Whether a sweep's narrowed domains leave a variant that runs without the Vector API. */
    default boolean runsWithoutVectors(Map<String, List<Object>> narrowed) {
        for (var e : withoutVectors().entrySet()) {
            List<Object> chosen = narrowed.get(e.getKey());
            if (chosen != null && chosen.stream().noneMatch(e.getValue()::contains)) return false;
        }
        return true;
    }

    /** The domains that keep only the variants that run without the Vector API; empty when all do. */
    default Map<String, List<Object>> withoutVectors() { return Map.of(); }

    /**
     * Configurations worth measuring before a strategy's own, for a shape at {@code threads}
     * threads: points that were fast on the machines this family was tuned on (AVX2, AVX-512 and
     * 128-bit vectors), with tiles cut to the shape's domains. A search measures those valid on its
     * device (vector width, register file, the sweep's narrowing) right after the baseline and
     * tells its strategy how they did, so a short budget starts in the fast region. Empty where
     * nothing is known.
     */
    default List<Map<String, Object>> seeds(KernelKey key, int threads) { return List.of(); }

    /** The untuned configuration: a sensible variant, not the worst one. */
    Map<String, Object> defaultConfig(KernelKey key, int cores);

    /** Floating-point operations of one call, for GFLOP/s; 0 when not meaningful. */
    double flops(KernelKey key);

    /** Checks a shape, naming the offending dimension. */
    default void validate(KernelKey key) {
        for (String d : dimensions()) {
            Integer v = key.shape().get(d);
            if (v == null) throw new IllegalArgumentException("shape." + d + " is missing");
            if (v <= 0) throw new IllegalArgumentException("shape." + d + " must be positive, got " + v);
        }
        for (String d : key.shape().keySet()) {
            if (!dimensions().contains(d)) throw new IllegalArgumentException("shape." + d + ": " + op() + " has no such dimension (it has " + dimensions() + ")");
        }
        if (!dtypes().contains(key.dtype())) throw new IllegalArgumentException("dtype: " + op() + " implements " + dtypes() + ", not " + key.dtype());
    }
}
