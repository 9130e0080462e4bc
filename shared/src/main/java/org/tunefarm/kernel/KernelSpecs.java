package org.tunefarm.kernel;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/** The kernel families the farm knows by name. Adding a family means registering it here. */
public final class KernelSpecs {
    private static final Map<String, KernelSpec> BY_OP = new LinkedHashMap<>();

    static {
        register(new GemmSpec());
        register(new Conv2dSpec());
        register(new DepthwiseConv2dSpec());
        register(new SleepSpec());
    }

    private KernelSpecs() {}

    private static void register(KernelSpec spec) {
        BY_OP.put(spec.op(), spec);
    }

    /** @throws IllegalArgumentException naming the known operations */
    public static KernelSpec get(String op) {
        KernelSpec s = BY_OP.get(op);
        if (s == null) throw new IllegalArgumentException("kernel: unknown operation '" + op + "' (known: " + BY_OP.keySet() + ")");
        return s;
    }

    public static Collection<KernelSpec> all() {
        return BY_OP.values();
    }
}
