package org.tunefarm.agent.kernels;

import java.util.Map;

/**
 * Reads one point's parameters by name, as the harness receives them (JSON values), with an
 * error that names the parameter: what the families' configs share.
 */
public final class KernelParams {

    private KernelParams() {}

    public static String text(Map<String, Object> params, String name) {
        Object v = params.get(name);
        if (!(v instanceof String s)) throw new IllegalArgumentException(name + ": expected a string, got " + v);
        return s;
    }

    public static int integer(Map<String, Object> params, String name) {
        Object v = params.get(name);
        if (!(v instanceof Number n) || n.doubleValue() != n.intValue()) throw new IllegalArgumentException(name + ": expected an integer, got " + v);
        return n.intValue();
    }

    /** A 0/1 parameter. */
    public static boolean flag(Map<String, Object> params, String name) {
        int v = integer(params, name);
        if (v != 0 && v != 1) throw new IllegalArgumentException(name + ": expected 0 or 1, got " + v);
        return v == 1;
    }

    public static void positive(String name, int v) {
        if (v <= 0) throw new IllegalArgumentException(name + " must be positive, got " + v);
    }
}
