package org.tunefarm.kernel;

import java.util.List;
import java.util.Map;
import org.tunefarm.space.SearchSpace;

/** fp32 row-major GEMM, C = A·B with A MxK and B KxN. */
public final class GemmSpec implements KernelSpec {

    @Override public String op() { return "gemm"; }

    @Override public List<String> dimensions() { return List.of("M", "N", "K"); }

    @Override public SearchSpace space(KernelKey key, int cores) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    @Override public Map<String, Object> defaultConfig(KernelKey key, int cores) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    @Override public double flops(KernelKey key) {
        return 2.0 * key.dim("M") * key.dim("N") * key.dim("K");
    }
}
