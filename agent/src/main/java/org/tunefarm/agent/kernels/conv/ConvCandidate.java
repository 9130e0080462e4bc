package org.tunefarm.agent.kernels.conv;

import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.gemm.ThreadTeam;

/**
 * One convolution (conv2d or depthwise) configuration bound to a workload: its output in its own layout, one
 * {@link ConvKernel} per thread over an equal share of the units, and the thread team.
 */
final class ConvCandidate implements KernelFamily.Candidate {

    private final ToDoubleFunction<float[]> error;
    private final float[] out;
    private final ConvKernel[] shares;
    private final int units;
    private final ThreadTeam team;

    /** @param error the largest difference between an output and the workload's reference */
    ConvCandidate(int outputSize, ToDoubleFunction<float[]> error, int threads, Supplier<ConvKernel> kernel) {
        this.error = error;
        this.out = new float[outputSize];
        ConvKernel first = kernel.get();
        this.units = first.units();
        int parts = Math.max(1, Math.min(threads, units));
        this.shares = new ConvKernel[parts];
        shares[0] = first;
        for (int i = 1; i < parts; i++) shares[i] = kernel.get();
        this.team = parts > 1 ? new ThreadTeam(parts - 1) : null;
    }

    @Override public void run() {
        if (team == null) share(0);
        else team.run(this::share);
    }

    private void share(int i) {
        int parts = shares.length;
        shares[i].compute(out, (int) ((long) units * i / parts), (int) ((long) units * (i + 1) / parts));
    }

    @Override public double maxError() {
        return error.applyAsDouble(out);
    }

    /** The output of the last run, for tests that corrupt it. */
    float[] output() {
        return out;
    }

    @Override public void close() {
        if (team != null) team.close();
    }
}
