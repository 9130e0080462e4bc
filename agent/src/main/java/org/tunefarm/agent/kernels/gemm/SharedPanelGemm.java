package org.tunefarm.agent.kernels.gemm;

import java.util.concurrent.atomic.AtomicInteger;
import org.tunefarm.agent.kernels.KernelFamily;

/**
 * The packed GEMM on several threads, as BLIS parallelises its M loop: for each (N block, K
 * slice) the team packs B's block once, into a buffer every thread reads; the threads take chunks
 * of M from a shared counter, each packing its own A, and those done first pack the next block.
 * Splitting C into one fixed block per thread ({@link GemmCandidate}) had every thread pack all of
 * B's slice for itself, and a call ended when the slower thread did, so a thread that lost its
 * core for a while (a shared host) held up the whole call; with chunks the other thread takes up
 * the slack. Each element of C is computed by the same micro-kernel calls in the same K order
 * whichever thread takes its chunk, so the result does not depend on the schedule.
 */
final class SharedPanelGemm implements KernelFamily.Candidate {

    /** Chunks of M per thread, where the M blocks allow: enough to even out a thread that stalls. */
    static final int CHUNKS_PER_THREAD = 4;

    /** K rows of B's block in one packing share: 16 whole rows of B, 64 KB at n = 1024. */
    static final int PACK_ROWS = 16;

    private final GemmWorkload workload;
    private final float[] c;
    private final BlockedVectorGemm[] own;
    /** B's packed block for even steps and for odd ones, one buffer where there is one step (null where B is read in place). */
    private final float[][] sharedB;
    private final int width, chunk, chunks, tileN, tileK, blocksN, slicesK;
    private final boolean packB;
    private final ThreadTeam team;
    private final SpinBarrier barrier;
    private final AtomicInteger nextChunk = new AtomicInteger(), nextRows = new AtomicInteger();
    private final Runnable resetCounters = () -> {
        nextChunk.set(0);
        nextRows.set(0);
    };

    SharedPanelGemm(GemmWorkload workload, GemmConfig config) {
        this.workload = workload;
        this.c = new float[workload.m * workload.n];
        int rows = config.microRows();
        width = config.microVecs() * MicroKernel.lanes();
        BlockedVectorGemm first = BlockedVectorGemm.teamMember(workload, config);
        tileN = first.tileN();
        tileK = first.tileK();
        packB = first.packsB();
        int perChunk = roundUp(ceilDiv(workload.m, CHUNKS_PER_THREAD * config.threads()), rows);
        chunk = Math.min(first.tileM(), Math.max(rows, perChunk));
        chunks = ceilDiv(workload.m, chunk);
        int threads = Math.max(1, Math.min(config.threads(), chunks));
        own = new BlockedVectorGemm[threads];
        own[0] = first;
        for (int t = 1; t < threads; t++) own[t] = BlockedVectorGemm.teamMember(workload, config);
        blocksN = ceilDiv(workload.n, tileN);
        slicesK = ceilDiv(workload.k, tileK);
        int buffers = blocksN * slicesK > 1 ? 2 : 1; // a 1024^3 block with K in one slice is 4 MB
        sharedB = packB ? new float[buffers][tileN * tileK] : null;
        team = threads > 1 ? new ThreadTeam(threads - 1) : null;
        barrier = new SpinBarrier(threads);
    }

    /** Whether the threads of {@code config} on this shape take M in chunks here rather than a fixed block each. */
    static boolean splitsM(GemmWorkload w, GemmConfig config) {
        // Where RegionSplit would split M; C of a single row of micro-tiles splits K, wide C splits N.
        return config.threads() > 1 && w.m > config.microRows() && RegionSplit.alongM(w.m, w.n);
    }

    @Override public void run() {
        barrier.reset();
        resetCounters.run();
        if (team == null) share(0);
        else team.run(this::share);
    }

    private void share(int t) {
        try {
            work(t);
        } catch (Throwable e) {
            barrier.breakBarrier();
            throw e;
        }
    }

    /**
     * Steps are the (N block, K slice) pairs in order. Step s reads B's block from buffer s % 2
     * while the threads that finish its chunks first pack step s + 1's block into the other
     * buffer, runs of K rows at a time from a shared counter; one barrier per step then lets step s + 1
     * begin (its panels packed) and frees buffer s % 2 for step s + 2 (no thread reads it any more).
     */
    private void work(int t) {
        int steps = blocksN * slicesK;
        if (packB) {
            packPanels(0);
            barrier.await(resetCounters);
        }
        for (int s = 0; s < steps; s++) {
            int jc = s / slicesK * tileN, pc = s % slicesK * tileK;
            int jEnd = Math.min(jc + tileN, workload.n), kc = Math.min(tileK, workload.k - pc);
            float[] panels = packB ? sharedB[s % sharedB.length] : null;
            for (int u; (u = nextChunk.getAndIncrement()) < chunks; ) {
                int ic = u * chunk;
                own[t].chunk(c, ic, Math.min(ic + chunk, workload.m), jc, jEnd, pc, kc, pc > 0, panels, 0);
            }
            if (packB && s + 1 < steps) packPanels(s + 1);
            barrier.await(resetCounters);
        }
    }

    /**
     * Packs step s's B block into buffer s % 2, taking runs of {@link #PACK_ROWS} of its K rows from
     * the shared counter, each across all the block's panels (as {@link MicroPanels#packBRows} reads B: along its rows).
     */
    private void packPanels(int s) {
        int jc = s / slicesK * tileN, pc = s % slicesK * tileK;
        int jEnd = Math.min(jc + tileN, workload.n), kc = Math.min(tileK, workload.k - pc);
        int runs = ceilDiv(kc, PACK_ROWS);
        float[] into = sharedB[s % sharedB.length];
        for (int r; (r = nextRows.getAndIncrement()) < runs; ) {
            int from = r * PACK_ROWS;
            MicroPanels.packBRows(workload.b, workload.n, pc, kc, from, Math.min(kc, from + PACK_ROWS), jc, jEnd, width, into, 0);
        }
    }

    @Override public double maxError() {
        return workload.maxError(c);
    }

    /** The output of the last run, for tests. */
    float[] output() {
        return c;
    }

    /** How many threads work on a call (fewer than asked where M has fewer chunks). */
    int threads() {
        return own.length;
    }

    @Override public void close() {
        if (team != null) team.close();
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    private static int roundUp(int v, int multiple) {
        return ceilDiv(v, multiple) * multiple;
    }
}
