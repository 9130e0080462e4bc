package org.tunefarm.kernel;

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
