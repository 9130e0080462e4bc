package org.tunefarm.agent.kernels.gemm;

import java.util.Map;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.kernel.GemmSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;

/**
 * fp32 GEMM on the agent: the scalar loops ({@link ScalarGemm}), the row-streaming vector path
 * for one-row micro-tiles ({@link RowStreamGemm}) and the register-blocked vector path
 * ({@link BlockedVectorGemm}), each split over threads by {@link GemmCandidate}; the blocked path
 * on tall or square C shares B's packed panels across its threads instead ({@link SharedPanelGemm}).
 */
public final class GemmFamily implements KernelFamily {

    private final GemmSpec spec = new GemmSpec();

    @Override public KernelSpec spec() { return spec; }

    /**
     * 2: the row streamer takes 2 x microVecs rows of B per pass over C (it took one row, updating
     * microVecs vectors per step), about twice as fast at batch 1; the 6x2 micro-kernel walks packed
     * panels with constant strides, about 1.5x faster at 128 bits. 3: the 6x2 micro-kernel's packed
     * and strided walks are separate methods (one method with both compiled worse: up to 1.2x at
     * 512^3 with A read in place). 4: the 3x3 micro-tile (microRows 3) joins the space, so every
     * index moves, and AVX2's space drops the tiles that spill (4x3, 6x2, 8x1). 5: every
     * written-out tile has its own packed walk, as 3x3 and 6x2 had (generated from one template,
     * {@code UnrolledMicroKernels}); 512^3 at 4x2 on AVX2 about 1.2x. 6: several threads on tall or
     * square C pack B once for the team and take M in chunks ({@link SharedPanelGemm}); A's panels are
     * packed a k step at a time and full B panels copied by vectors ({@link MicroPanels}). 7: the
     * micro-kernels' packed and rows walks count A's offset, B's derived from it (4 integer
     * instructions a k step at 3x3 rather than 9; 1.06-1.10x at 3x3 on AVX2); same answers. 8: B's
     * block is packed row by row across its panels, reading B along its rows ({@link MicroPanels#packBRows});
     * same answers, 1.01-1.13x at 1024^3 on AVX2. 9: the one-row path's 4- and 8-row passes skew
     * their rows, so the streams do not share cache sets and banks ({@link RowStreamGemm}); sums in
     * another order; at M = 1, N = K = 4096 on a Zen 5 the 4-row pass 1.35-1.5x (also under
     * {@code -XX:UseAVX=2}), the 8-row 1.12-1.20x (1.02x under AVX2, where it spills). 10: B's
     * block is packed four rows of a panel at a time, panel after panel ({@link MicroPanels#packBRows});
     * same answers, the packing 1.5-2.3x as fast on a Zen 5 at 8x2. 11: the micro-kernels store
     * their tile inline rather than through a helper C2 left out of line in the 24-accumulator
     * tiles (each accumulator boxed); same answers, 6x4 1.6-1.8x and 8x3 1.05-1.25x at 512^3 and
     * 1024^3 on a Zen 5, the others unchanged. 12: A's panels are packed a vector of k steps at a
     * time, transposed by lane shuffles ({@link PanelTranspose}); same answers, the packing 1.3-4.8x
     * as fast, the GEMM about 1.03x.
     */
    @Override public int implementation() { return 12; }

    @Override public Workload workload(KernelKey key, long seed) {
        spec.validate(key);
        return new GemmWorkload(key, seed);
    }

    @Override public Candidate candidate(Workload workload, Map<String, Object> params) {
        if (!(workload instanceof GemmWorkload w)) throw new IllegalArgumentException("not a gemm workload: " + workload.key().id());
        GemmConfig config = GemmConfig.of(params);
        if (!config.vector()) {
            return new GemmCandidate(w, config.threads(), 1, 16, wl -> new ScalarGemm(wl, config));
        }
        if (!VectorWidth.available()) throw new IllegalArgumentException(VectorWidth.UNAVAILABLE);
        int width = config.microVecs() * MicroKernel.lanes();
        if (config.microRows() == 1) {
            return new GemmCandidate(w, config.threads(), 1, MicroKernel.lanes(), wl -> new RowStreamGemm(wl, config));
        }
        if (SharedPanelGemm.splitsM(w, config)) return new SharedPanelGemm(w, config);
        return new GemmCandidate(w, config.threads(), config.microRows(), width, wl -> new BlockedVectorGemm(wl, config));
    }
}
