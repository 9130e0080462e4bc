package org.tunefarm.bench;

import java.io.IOException;
import java.util.List;
import org.tunefarm.measure.Stats;

/**
 * The memory roofline of a kernel that must stream an array once: a C program ({@code stream_read.c},
 * OpenMP, {@code -O3 -march=native}) sums a float array of that size with the same threads, sampled
 * by the harness's rule. Batch-1 GEMM (M=1) reads all of B once per call, so its roofline is its
 * work over the time of one such pass.
 */
final class ReadBandwidth {

    private final NativeProgram program;
    private final String missing;

    private ReadBandwidth(NativeProgram program, String missing) {
        this.program = program;
        this.missing = missing;
    }

    static ReadBandwidth find() {
        NativeProgram.Built b = NativeProgram.compile("stream_read", List.of("-O3", "-ffast-math", "-fopenmp"), List.of());
        return new ReadBandwidth(b.program(), b.missing());
    }

    /** Why it cannot be measured here, or null. */
    String missing() {
        return missing;
    }

    /** Time per pass over {@code floats} floats with {@code threads} threads. */
    Stats pass(long floats, int threads, int samples, double minSampleMs) throws IOException {
        return program.sample(List.of(String.valueOf(floats), String.valueOf(threads), String.valueOf(samples), String.valueOf(minSampleMs)),
                "stream_read");
    }
}
