package org.tunefarm.agent.kernels.gemm;

import static org.tunefarm.agent.kernels.KernelParams.flag;
import static org.tunefarm.agent.kernels.KernelParams.integer;
import static org.tunefarm.agent.kernels.KernelParams.positive;
import static org.tunefarm.agent.kernels.KernelParams.text;

import java.util.Map;
import java.util.Set;

/**
 * One point of the GEMM space, read from the parameter map the harness receives. Values are
 * checked for being runnable, not for the space's constraints: the kernels compute the right
 * answer for any combination, the constraints only prune duplicates.
 */
record GemmConfig(String kernel, String loopOrder, int tileM, int tileN, int tileK,
                  int microRows, int microVecs, boolean packA, boolean packB, int threads) {

    private static final Set<String> NAMES = Set.of("kernel", "loopOrder", "tileM", "tileN", "tileK",
            "microRows", "microVecs", "packA", "packB", "threads");
    /** Far above any board's core count; a guard against a config that would exhaust threads. */
    static final int MAX_THREADS = 256;

    GemmConfig {
        if (!kernel.equals("scalar") && !kernel.equals("vector")) throw new IllegalArgumentException("kernel: expected scalar or vector, got " + kernel);
        if (!loopOrder.equals("ijk") && !loopOrder.equals("ikj")) throw new IllegalArgumentException("loopOrder: expected ijk or ikj, got " + loopOrder);
        positive("tileM", tileM);
        positive("tileN", tileN);
        positive("tileK", tileK);
        positive("microRows", microRows);
        positive("microVecs", microVecs);
        positive("threads", threads);
        if (threads > MAX_THREADS) throw new IllegalArgumentException("threads: at most " + MAX_THREADS + ", got " + threads);
    }

    /** @throws IllegalArgumentException naming a missing, unknown or malformed parameter */
    static GemmConfig of(Map<String, Object> params) {
        for (String k : params.keySet()) {
            if (!NAMES.contains(k)) throw new IllegalArgumentException("unknown gemm parameter '" + k + "'");
        }
        return new GemmConfig(text(params, "kernel"), text(params, "loopOrder"),
                integer(params, "tileM"), integer(params, "tileN"), integer(params, "tileK"),
                integer(params, "microRows"), integer(params, "microVecs"),
                flag(params, "packA"), flag(params, "packB"), integer(params, "threads"));
    }

    boolean vector() { return kernel.equals("vector"); }
}
