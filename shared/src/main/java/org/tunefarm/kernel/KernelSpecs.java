package org.tunefarm.kernel;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel families the farm knows by name. Built-in families are registered here; families
 * that come from data found at start-up (replayed spaces) are added with {@link #register}.
 */
public final class KernelSpecs {
    /** Guarded by itself: registration happens at start-up, lookups from any thread. */
    private static final Map<String, KernelSpec> BY_OP = new LinkedHashMap<>();

    static {
        register(new GemmSpec());
        register(new Conv2dSpec());
        register(new DepthwiseConv2dSpec());
        register(new SleepSpec());
        register(new HeatSimSpec());
    }

    private KernelSpecs() {}

    /**
     * Adds a family. Registering an equal spec again is a no-op (start-up code may run twice in
     * one JVM, as in tests), so the instance already held, with whatever it has loaded, is kept.
     *
     * @return the registered instance
     * @throws IllegalArgumentException when another, different spec holds the operation name
     */
    public static KernelSpec register(KernelSpec spec) {
        synchronized (BY_OP) {
            KernelSpec held = BY_OP.get(spec.op());
            if (held == null) {
                BY_OP.put(spec.op(), spec);
                return spec;
            }
            if (held.equals(spec)) return held;
            throw new IllegalArgumentException("kernel: operation '" + spec.op() + "' is already registered as " + held);
        }
    }

    /** @throws IllegalArgumentException naming the known operations */
    public static KernelSpec get(String op) {
        synchronized (BY_OP) {
            KernelSpec s = BY_OP.get(op);
            if (s == null) throw new IllegalArgumentException("kernel: unknown operation '" + op + "' (known: " + BY_OP.keySet() + ")");
            return s;
        }
    }

    /** A snapshot, in registration order. */
    public static Collection<KernelSpec> all() {
        synchronized (BY_OP) {
            return List.copyOf(BY_OP.values());
        }
    }
}
