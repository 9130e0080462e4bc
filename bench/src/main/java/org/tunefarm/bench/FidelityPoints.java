package org.tunefarm.bench;

import static org.tunefarm.bench.GemmPoint.scalar;
import static org.tunefarm.bench.GemmPoint.vector;

import java.util.List;
import java.util.Map;

/**
 * The fixed list of GEMM points the fidelity bench ranks for 512x512x512: a spread from scalar
 * loops (~1-5 GFLOP/s) through row-streaming and small micro-tiles to the register-blocked tiles
 * near the machine's limit, with one and two threads. Fixed, not sampled, so two runs of the bench
 * rank the same points; several pairs are deliberately close (6x2 with and without packed A, 4x3
 * against 6x2), because telling close points apart is what fidelity is about.
 */
final class FidelityPoints {

    private FidelityPoints() {}

    static final List<Map<String, Object>> GEMM_512 = List.of(
            scalar("ikj", 64, 256, 128, 0, 1),      // the family default
            scalar("ijk", 64, 256, 128, 0, 1),
            scalar("ijk", 64, 256, 128, 1, 1),
            scalar("ikj", 32, 512, 64, 0, 1),
            scalar("ikj", 64, 256, 128, 0, 2),
            vector(16, 512, 128, 1, 1, 0, 0, 1),
            vector(16, 512, 256, 1, 4, 0, 0, 1),
            vector(16, 512, 256, 1, 2, 0, 0, 2),
            vector(64, 512, 128, 2, 1, 0, 0, 1),
            vector(64, 512, 128, 4, 1, 0, 0, 1),
            vector(64, 512, 256, 4, 2, 0, 1, 1),
            vector(64, 512, 256, 6, 1, 1, 1, 1),
            vector(64, 512, 256, 6, 2, 0, 1, 1),
            vector(64, 512, 256, 6, 2, 1, 1, 1),
            vector(64, 512, 256, 4, 3, 1, 1, 1),
            vector(64, 512, 256, 6, 4, 1, 1, 1),
            vector(64, 512, 256, 8, 3, 1, 1, 1),
            vector(64, 512, 256, 4, 3, 1, 1, 2),
            vector(64, 512, 256, 6, 2, 1, 1, 2),
            vector(32, 256, 512, 8, 2, 1, 1, 2));

    /** For {@code --quick}: four points of a small shape, enough to exercise every step. */
    static final List<Map<String, Object>> GEMM_QUICK = List.of(
            scalar("ijk", 32, 32, 32, 0, 1),
            scalar("ikj", 32, 32, 32, 0, 1),
            vector(32, 64, 64, 1, 1, 0, 0, 1),
            vector(32, 64, 64, 4, 2, 1, 1, 1));
}
