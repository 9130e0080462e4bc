package org.tunefarm.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Stats;

/**
 * The depthwise baseline: a direct C loop ({@code depthwise_direct.c}, NCHW, {@code gcc -O3
 * -march=native}, OpenMP over channels), verified against a double reference, sampled by the
 * harness's rule. im2col + GEMM is no baseline for depthwise: a GEMM of one filter row per channel
 * runs at about 1 GFLOP/s.
 */
final class DirectDepthwise {

    static final List<String> DIMENSIONS = List.of("N", "C", "H", "W", "R", "S", "stride", "pad");

    private final NativeProgram program;
    private final String missing;

    private DirectDepthwise(NativeProgram program, String missing) {
        this.program = program;
        this.missing = missing;
    }

    static DirectDepthwise find() {
        NativeProgram.Built b = NativeProgram.compile("depthwise_direct", List.of("-O3", "-fopenmp"), List.of("-lm"));
        return new DirectDepthwise(b.program(), b.missing());
    }

    /** Why it cannot be measured here, or null. */
    String missing() {
        return missing;
    }

    Stats measure(KernelKey key, int threads, int samples, double minSampleMs) throws IOException {
        List<String> args = new ArrayList<>();
        for (String d : DIMENSIONS) args.add(String.valueOf(key.dim(d)));
        args.addAll(List.of(String.valueOf(threads), String.valueOf(samples), String.valueOf(minSampleMs)));
        return program.sample(args, "direct C depthwise");
    }
}
