package org.tunefarm.agent.testkernels;

import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.space.SearchSpace;

/** The declaration of a test family: an operation with one dimension {@code n}. */
record TestSpec(String op) implements KernelSpec {

    @Override public List<String> dimensions() { return List.of("n"); }

    @Override public SearchSpace space(KernelKey key, int cores) {
        throw new UnsupportedOperationException("test families are driven with explicit params");
    }

    @Override public Map<String, Object> defaultConfig(KernelKey key, int cores) { return Map.of(); }

    @Override public double flops(KernelKey key) { return 0; }
}
