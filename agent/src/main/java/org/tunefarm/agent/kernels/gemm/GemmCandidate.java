package org.tunefarm.agent.kernels.gemm;

import java.util.List;
import java.util.function.Function;
import org.tunefarm.agent.kernels.KernelFamily;

/**
 * One GEMM configuration bound to a workload: its own C, one {@link RegionKernel} per thread
 * (each with its own packing buffers), and the thread team, released by {@link #close()}. When
 * the threads split K, every block after the first writes a private partial C, summed into C
 * after the team finishes (only short C is split so, so the sum is small).
 */
final class GemmCandidate implements KernelFamily.Candidate {

    private final GemmWorkload workload;
    private final float[] c;
    private final List<RegionSplit> regions;
    private final RegionKernel[] shares;
    private final float[][] outputs;
    private final ThreadTeam team;

    GemmCandidate(GemmWorkload workload, int threads, int alignM, int alignN, Function<GemmWorkload, RegionKernel> kernel) {
        this.workload = workload;
        this.c = new float[workload.m * workload.n];
        this.regions = RegionSplit.of(workload.m, workload.n, workload.k, threads, alignM, alignN);
        this.shares = new RegionKernel[regions.size()];
        this.outputs = new float[regions.size()][];
        for (int i = 0; i < shares.length; i++) {
            shares[i] = kernel.apply(workload);
            outputs[i] = i > 0 && regions.get(i).partialK(workload.k) ? new float[c.length] : c;
        }
        this.team = shares.length > 1 ? new ThreadTeam(shares.length - 1) : null;
    }

    @Override public void run() {
        if (team == null) {
            share(0);
            return;
        }
        team.run(this::share);
        for (int i = 1; i < outputs.length; i++) {
            float[] partial = outputs[i];
            if (partial == c) continue;
            for (int j = 0; j < c.length; j++) c[j] += partial[j];
        }
    }

    private void share(int i) {
        RegionSplit r = regions.get(i);
        shares[i].compute(outputs[i], r.m0(), r.m1(), r.n0(), r.n1(), r.k0(), r.k1());
    }

    @Override public double maxError() {
        return workload.maxError(c);
    }

    /** The output of the last run, for tests that corrupt it. */
    float[] output() {
        return c;
    }

    @Override public void close() {
        if (team != null) team.close();
    }
}
