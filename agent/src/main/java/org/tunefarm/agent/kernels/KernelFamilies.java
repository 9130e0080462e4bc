package org.tunefarm.agent.kernels;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tunefarm.agent.kernels.conv.Conv2dFamily;
import org.tunefarm.agent.kernels.conv.DepthwiseConv2dFamily;
import org.tunefarm.agent.kernels.gemm.GemmFamily;
import org.tunefarm.agent.kernels.sleep.SleepFamily;

/**
 * The kernel families this agent implements, by operation name; mirrors
 * {@link org.tunefarm.kernel.KernelSpecs}. Adding a family means registering it in both.
 */
public final class KernelFamilies {
    private static final Map<String, KernelFamily> BY_OP = new LinkedHashMap<>();

    static {
        register(new GemmFamily());
        register(new Conv2dFamily());
        register(new DepthwiseConv2dFamily());
        register(new SleepFamily());
    }

    private KernelFamilies() {}

    private static void register(KernelFamily family) {
        BY_OP.put(family.spec().op(), family);
    }

    /** @throws IllegalArgumentException naming the known operations */
    public static KernelFamily get(String op) {
        KernelFamily f = BY_OP.get(op);
        if (f == null) throw new IllegalArgumentException("kernel: this agent has no family for '" + op + "' (known: " + BY_OP.keySet() + ")");
        return f;
    }

    public static Collection<KernelFamily> all() {
        return BY_OP.values();
    }
}
