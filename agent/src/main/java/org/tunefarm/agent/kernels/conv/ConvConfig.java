package org.tunefarm.agent.kernels.conv;

import static org.tunefarm.agent.kernels.KernelParams.flag;
import static org.tunefarm.agent.kernels.KernelParams.integer;
import static org.tunefarm.agent.kernels.KernelParams.positive;
import static org.tunefarm.agent.kernels.KernelParams.text;

import java.util.Map;
import java.util.Set;

/**
 * One point of the conv2d space, read from the parameter map. Checked for being runnable, not
 * for the space's constraints, except that Winograd refuses shapes it does not compute.
 */
record ConvConfig(boolean nhwc, String algo, boolean vector, int microRows, int microVecs,
                  int tileP, int tileK, int tileC, int threads, boolean packInput) {

    private static final Set<String> NAMES = Set.of("layout", "algo", "kernel", "microRows", "microVecs",
            "tileP", "tileK", "tileC", "threads", "packInput");
    static final int MAX_THREADS = 256;

    ConvConfig {
        if (!Set.of("direct", "im2col", "winograd", "gemm").contains(algo)) throw new IllegalArgumentException("algo: expected direct, im2col, winograd or gemm, got " + algo);
        if (!vector && !algo.equals("direct")) throw new IllegalArgumentException("kernel: scalar runs only the direct algorithm");
        positive("microRows", microRows);
        positive("microVecs", microVecs);
        positive("tileP", tileP);
        positive("tileK", tileK);
        positive("tileC", tileC);
        positive("threads", threads);
        if (threads > MAX_THREADS) throw new IllegalArgumentException("threads: at most " + MAX_THREADS + ", got " + threads);
        if (packInput && (nhwc || !algo.equals("gemm"))) throw new IllegalArgumentException("packInput: only the NCHW gemm packs its input by choice");
    }

    /** @throws IllegalArgumentException naming a missing, unknown or malformed parameter */
    static ConvConfig of(Map<String, Object> params) {
        for (String k : params.keySet()) {
            if (!NAMES.contains(k)) throw new IllegalArgumentException("unknown conv2d parameter '" + k + "'");
        }
        String layout = text(params, "layout");
        if (!layout.equals("NCHW") && !layout.equals("NHWC")) throw new IllegalArgumentException("layout: expected NCHW or NHWC, got " + layout);
        String kernel = text(params, "kernel");
        if (!kernel.equals("scalar") && !kernel.equals("vector")) throw new IllegalArgumentException("kernel: expected scalar or vector, got " + kernel);
        return new ConvConfig(layout.equals("NHWC"), text(params, "algo"), kernel.equals("vector"),
                integer(params, "microRows"), integer(params, "microVecs"), integer(params, "tileP"),
                integer(params, "tileK"), integer(params, "tileC"), integer(params, "threads"), flag(params, "packInput"));
    }
}
