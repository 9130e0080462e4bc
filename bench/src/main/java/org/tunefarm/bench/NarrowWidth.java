package org.tunefarm.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.agent.worker.WorkerCommand;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;

/**
 * One GEMM shape at a narrower forced vector width (128 bits, NEON's, by default) beside this
 * machine's own, in one run: each width in a worker JVM of its own (the narrow one started with
 * {@code -Dtunefarm.vectorBits}), each finding its point by the same quick search in its worker,
 * then both tuned points measured in every round of the case, their order alternating. The ratio
 * narrow / native is so paired in time: a slow stretch of the host hits both sides, as it cannot
 * when the two widths are two runs minutes apart. Both sides have the same history (a search of
 * the same budget in a fresh JVM) and neither has the JIT profiles of the bench's own JVM.
 */
final class NarrowWidth implements AutoCloseable {

    private final int bits;
    private final Worker nativeWidth;
    private final Worker narrow;

    private NarrowWidth(int bits, Worker nativeWidth, Worker narrow) {
        this.bits = bits;
        this.nativeWidth = nativeWidth;
        this.narrow = narrow;
    }

    /** Whether this JVM's kernels are wider than {@code bits}: else there is nothing narrower to compare. */
    static boolean applies(int bits) {
        return bits > 0 && VectorWidth.available() && VectorWidth.bits() > bits;
    }

    /** Workers for one shape (a worker serves one kernel and shape); they start on their first candidate. */
    static NarrowWidth open(int bits) {
        WorkerCommand here = WorkerCommand.current();
        return new NarrowWidth(bits, here.newWorker(), here.atVectorBits(bits).newWorker());
    }

    int bits() {
        return bits;
    }

    /**
     * The quick search of {@link TunedSearch} in each worker over its width's space, same budget
     * and seed: {@code [native, narrow]}, null where every point of one failed. The native search
     * repeats the bench's own, and is kept: it gives the native worker the history the narrow one
     * has. Handed the bench's point instead, the native worker measured a point it had never run
     * (0.41 GFLOP/s under {@code --quick}, still interpreted) beside a narrow worker its search had warmed.
     */
    List<Map<String, Object>> search(KernelKey key, int cores, int threads, int budget, long seed, MeasureSettings quick,
                                     MeasureSettings full, Consumer<String> log) {
        List<Map<String, Object>> points = new ArrayList<>();
        points.add(TunedSearch.inWorker(nativeWidth, VectorWidth.bits(), log).run(key, cores, threads, budget, seed, quick, full));
        points.add(TunedSearch.inWorker(narrow, bits, log).run(key, cores, threads, budget, seed, quick, full));
        return points;
    }

    /**
     * One round: the {@link #search}'s native point in the native worker and its narrow point in the
     * narrow one, the narrow first in odd rounds; GFLOP/s of each, {@code [native, narrow]}, null where one failed.
     */
    Double[] round(KernelKey key, List<Map<String, Object>> points, MeasureSettings full, double flops, int round) {
        Double[] g = new Double[2];
        for (int i = 0; i < 2; i++) {
            int side = (i + round) % 2;
            Map<String, Object> p = points.get(side);
            g[side] = p == null ? null : KernelsCommand.gflops(flops, (side == 0 ? nativeWidth : narrow).measure(key, p, full));
        }
        return g;
    }

    @Override public void close() {
        nativeWidth.close();
        narrow.close();
    }
}
