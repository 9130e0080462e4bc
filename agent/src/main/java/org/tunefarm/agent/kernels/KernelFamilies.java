package org.tunefarm.agent.kernels;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunefarm.agent.kernels.conv.Conv2dFamily;
import org.tunefarm.agent.kernels.conv.DepthwiseConv2dFamily;
import org.tunefarm.agent.kernels.gemm.GemmFamily;
import org.tunefarm.agent.kernels.heatsim.HeatSimFamily;
import org.tunefarm.agent.kernels.sleep.SleepFamily;

/**
 * The kernel families this agent implements, by operation name; mirrors
 * {@link org.tunefarm.kernel.KernelSpecs}. Adding a family means registering it in both; families
 * found at start-up (replayed spaces) are added to both with {@link #register}.
 */
public final class KernelFamilies {
    /** Guarded by itself: registration happens at start-up, lookups from any thread. */
    private static final Map<String, KernelFamily> BY_OP = new LinkedHashMap<>();

    static {
        register(new GemmFamily());
        register(new Conv2dFamily());
        register(new DepthwiseConv2dFamily());
        register(new SleepFamily());
        register(new HeatSimFamily());
    }

    private KernelFamilies() {}

    /**
     * Adds a family; a family for the same operation and an equal spec replaces nothing (start-up
     * code may run twice in one JVM).
     *
     * @return the registered instance
     * @throws IllegalArgumentException when a family with a different spec holds the operation
     */
    public static KernelFamily register(KernelFamily family) {
        synchronized (BY_OP) {
            String op = family.spec().op();
            KernelFamily held = BY_OP.get(op);
            if (held == null) {
                BY_OP.put(op, family);
                return family;
            }
            if (held.spec().equals(family.spec())) return held;
            throw new IllegalArgumentException("kernel: operation '" + op + "' already has a family (" + held.spec() + ")");
        }
    }

    /** @throws IllegalArgumentException naming the known operations */
    public static KernelFamily get(String op) {
        synchronized (BY_OP) {
            KernelFamily f = BY_OP.get(op);
            if (f == null) throw new IllegalArgumentException("kernel: this agent has no family for '" + op + "' (known: " + BY_OP.keySet() + ")");
            return f;
        }
    }

    /** The implementation version of the family for {@code op}; 0 when none (its candidates are refused INVALID). */
    public static int implementation(String op) {
        synchronized (BY_OP) {
            KernelFamily f = BY_OP.get(op);
            return f == null ? 0 : f.implementation();
        }
    }

    /** A snapshot, in registration order. */
    public static Collection<KernelFamily> all() {
        synchronized (BY_OP) {
            return List.copyOf(BY_OP.values());
        }
    }
}
