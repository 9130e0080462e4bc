package org.tunefarm.agent.kernels.conv;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.gemm.ThreadTeam;

/**
 * One convolution (conv2d or depthwise) configuration bound to a workload: its output in its own layout, one
 * {@link ConvKernel} per thread, and the thread team. The threads deal the units out among
 * themselves in {@link #CHUNKS_PER_THREAD} chunks each, taken in turn from a shared counter, rather
 * than a fixed half each: a call ends when its slowest thread does, and on a core shared with
 * another tenant (a VM's sibling, measured 1.45x slower in stretches) a fixed half made the whole
 * call that much slower, where the other thread now takes the slowed one's last chunks.
 */
final class ConvCandidate implements KernelFamily.Candidate {

    /** Chunks per thread: enough that a slowed thread leaves little to wait for, few enough that taking one costs nothing. */
    static final int CHUNKS_PER_THREAD = 4;

    private final ToDoubleFunction<float[]> error;
    private final float[] out;
    private final ConvKernel[] shares;
    private final int units, chunks;
    private final AtomicInteger nextChunk = new AtomicInteger();
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
        this.chunks = parts > 1 ? Math.min(units, parts * CHUNKS_PER_THREAD) : 1;
        this.team = parts > 1 ? new ThreadTeam(parts - 1) : null;
    }

    @Override public void run() {
        nextChunk.set(0);
        if (team == null) share(0);
        else team.run(this::share); // publishes the reset counter to the helpers
    }

    /** Thread i takes chunks until none is left; units are independent, so who computes one does not change it. */
    private void share(int i) {
        for (int c; (c = nextChunk.getAndIncrement()) < chunks; ) {
            shares[i].compute(out, (int) ((long) units * c / chunks), (int) ((long) units * (c + 1) / chunks));
        }
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
