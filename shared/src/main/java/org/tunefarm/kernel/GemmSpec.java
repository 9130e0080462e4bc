package org.tunefarm.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/**
 * fp32 row-major GEMM, C = A·B with A MxK and B KxN.
 *
 * <p>Two kernels span the space. {@code scalar} is plain Java loops in {@code ijk} or {@code ikj}
 * order over cache tiles ({@code tileM}, {@code tileN}, {@code tileK}), optionally copying each B
 * tile ({@code packB}; transposed for ijk so the dot product runs along contiguous memory).
 * {@code vector} uses the Vector API: with {@code microRows == 1} it streams rows of B with vector
 * FMAs (i-k-j, the shape for GEMV-like M=1), {@code 2 x microVecs} rows of B per pass over a C row
 * block; otherwise a register-blocked micro-kernel holds a
 * {@code microRows x microVecs} tile of C in vector registers, reading A and B either in place or
 * from packed, zero-padded micro-panels ({@code packA}, {@code packB}). {@code threads} splits C
 * into blocks along M or N (or, for a single row of micro-tiles, splits K and sums) on a fixed
 * pool the candidate owns.
 *
 * <p>Size: for 1024x1024x1024 on 2 cores, 138,240 points of which 30,240 are valid; for
 * 1x4096x4096, 6,144 and 768.
 *
 * <p>Every point computes the right answer for any shape; the constraints only remove points
 * that would duplicate another point's code path.
 */
public final class GemmSpec implements KernelSpec {

    static final int[] TILE_M = {16, 32, 64, 128, 256};
    static final int[] TILE_N = {32, 64, 128, 256, 512, 1024, 2048, 4096};
    static final int[] TILE_K = {32, 64, 128, 256, 512, 1024};
    static final int[] MICRO_ROWS = {1, 2, 3, 4, 6, 8};
    static final int[] MICRO_VECS = {1, 2, 3, 4};

    /**
     * Scalar ignores the micro-tile and A packing; the vector path has one loop order; the row
     * streamer (microRows 1) reads A and B in place; 24 accumulators plus the B vectors and an A
     * broadcast fill the 32 vector registers of AVX-512, NEON and SVE; a device with fewer gets
     * only the tiles its file holds ({@link #forDevice}).
     */
    public static final List<String> CONSTRAINTS = List.of(
            "kernel == \"scalar\" || loopOrder == \"ikj\"",
            "kernel == \"vector\" || (microRows == 1 && microVecs == 1 && packA == 0)",
            "kernel == \"scalar\" || microRows > 1 || (packA == 0 && packB == 0)",
            "microRows * microVecs <= 24");

    /**
     * The micro-tile fits the register file ({@link MicroTiles#fitRegisters}); the row streamer
     * (microRows 1) holds at most 8 broadcasts, two accumulators and a B vector, and is never the limit.
     */
    static String registerConstraint(int registers) {
        return "kernel == \"scalar\" || microRows == 1 || " + MicroTiles.fitRegisters(registers);
    }

    /**
     * The vector variants as {@link KernelSpec#forVectors}, less the micro-tiles that {@code registers}
     * vector registers cannot hold: AVX2's 16 hold 3x3, 4x2 or 2x4 but not 4x3 or 6x2; the 32 of
     * AVX-512, NEON and SVE everything up to the family's 24 accumulators.
     */
    @Override public SearchSpace forDevice(SearchSpace space, int vectorBits, int registers) {
        SearchSpace s = forVectors(space, vectorBits);
        return vectorBits == 0 ? s : s.narrow(java.util.Map.of(), List.of(registerConstraint(registers)));
    }

    @Override public String op() { return "gemm"; }

    /** The {@code scalar} kernel is plain Java; the others are written with the Vector API. */
    @Override public Map<String, List<Object>> withoutVectors() { return Map.of("kernel", List.of("scalar")); }

    @Override public List<String> dimensions() { return List.of("M", "N", "K"); }

    @Override public SearchSpace space(KernelKey key, int cores) {
        return SearchSpace.of(parameters(key, cores), CONSTRAINTS);
    }

    /**
     * The parameters and their domains for a shape. Tiles larger than the shape all behave
     * alike, so a domain keeps only the smallest such tile; micro-tiles taller than M are pure padding.
     */
    public List<Parameter> parameters(KernelKey key, int cores) {
        validate(key);
        if (cores < 1) throw new IllegalArgumentException("cores must be positive, got " + cores);
        int m = key.dim("M"), n = key.dim("N"), k = key.dim("K");
        return List.of(
                Parameter.strings("kernel", "scalar", "vector"),
                Parameter.strings("loopOrder", "ijk", "ikj"),
                Parameter.ints("tileM", Tiles.fitting(TILE_M, m)),
                Parameter.ints("tileN", Tiles.fitting(TILE_N, n)),
                Parameter.ints("tileK", Tiles.fitting(TILE_K, k)),
                Parameter.ints("microRows", IntStream.of(MICRO_ROWS).filter(r -> r == 1 || r <= m).toArray()),
                Parameter.ints("microVecs", MICRO_VECS),
                Parameter.ints("packA", 0, 1),
                Parameter.ints("packB", 0, 1),
                Parameter.ints("threads", IntStream.rangeClosed(1, cores).toArray()));
    }

    /** Scalar i-k-j over 64x256x128 tiles on one thread: what a careful hand-written loop gets. */
    @Override public Map<String, Object> defaultConfig(KernelKey key, int cores) {
        return Tiles.config(parameters(key, cores), Map.of("kernel", "scalar", "loopOrder", "ikj",
                "tileM", 64, "tileN", 256, "tileK", 128, "microRows", 1, "microVecs", 1,
                "packA", 0, "packB", 0, "threads", 1));
    }

    /**
     * The micro-tiles that held their accumulators in registers and ran fastest on AVX2 (3x3: 9
     * accumulators, 3 B vectors and 3 broadcasts of 16 registers; 4x2 behind it), AVX-512 and
     * 128-bit vectors (6x3 and 8x2 of 32 on a Zen 5; 6x4 and 8x3 where measured before), packed,
     * over the cache blocks that fed them best, and the farm's own winners there; for M = 1 the row
     * streamer over wide blocks of B. A tile the device's register file cannot hold is not valid in
     * its space, so each device measures only its own.
     */
    @Override public List<Map<String, Object>> seeds(KernelKey key, int threads) {
        List<Parameter> ps = parameters(key, threads);
        List<Map<String, Object>> out = new ArrayList<>();
        if (key.dim("M") == 1) {
            // The skewed 4-row pass over all of a row first: 1.17x the 8-row one and 1.3x the 6-row
            // at M = 1, N = K = 4096 on a Zen 5 (RowStreamGemm).
            out.add(vector(ps, 16, 4096, 256, 1, 2, 0, 0, threads));
            out.add(vector(ps, 16, 4096, 256, 1, 4, 0, 0, threads));
            out.add(vector(ps, 16, 1024, 256, 1, 2, 0, 0, threads));
            out.add(vector(ps, 16, 4096, 1024, 1, 4, 0, 0, threads));
        } else {
            // The 16- and 18-accumulator tiles first, K in one slice where K is at most 1024 (C
            // written once rather than re-read per slice; at 1024^3 its rows, 4 KB apart, share
            // cache sets): on a Zen 5 (Temurin 25, each point in JVMs of its own, 9 timings over 3
            // alternating cycles) 8x2 64/1024/1024 ran a median 189 GFLOP/s at 1024^3 on one thread
            // against 118 for the 128/1024/256 that led here before, and 6x3, 6x2 and 4x3 over the
            // same blocks 174-193. Alone on L1-resident panels (MicroKernelProbe) 6x3 and 8x2 ran
            // 214-220 GFLOP/s, 4x3 203-213, 6x2 198-205, 6x4 and 8x3 (24 accumulators) 123-153. In
            // a GEMM the 24-accumulator tiles' stores went through a helper C2 left out of line
            // (gemm 11 writes them inline); since, 6x4 64/1024/1024 ran 190-195 in one JVM beside
            // 8x2's 185-191 at 512^3 and 1024^3 on one thread (354 against 349 at 1024^3 on two;
            // all about 50 at 128 bits), so it is third; 8x3 126-145: seeded after.
            for (int[] tile : new int[][] {{8, 2}, {6, 3}, {6, 4}, {6, 2}, {4, 3}}) {
                out.add(vector(ps, 64, 1024, 1024, tile[0], tile[1], 1, 1, threads));
            }
            out.add(vector(ps, 64, 1024, 1024, 8, 2, 0, 1, threads));
            out.add(vector(ps, 64, 1024, 1024, 6, 3, 0, 1, threads));
            // Then K in slices of 512 and 256, for K beyond 1024 (the 256-slice blocks that led before
            // ran 0.63-0.77x of 8x2 64/1024/1024 at 1024^3, one JVM, 21 paired rounds, 1 and 2 threads).
            out.add(vector(ps, 128, 512, 512, 6, 3, 1, 1, threads));
            out.add(vector(ps, 128, 512, 512, 8, 2, 1, 1, threads));
            out.add(vector(ps, 128, 512, 256, 6, 2, 1, 1, threads));
            out.add(vector(ps, 128, 512, 512, 6, 2, 1, 1, threads));
            out.add(vector(ps, 64, 512, 256, 6, 4, 1, 1, threads));
            out.add(vector(ps, 16, 32, 512, 6, 4, 0, 0, threads));
            out.add(vector(ps, 64, 512, 512, 8, 3, 1, 1, threads));
            // Last, so a 32-register device's share of the budget still goes to its own tiles; on AVX2
            // (Zen 3, 512^3 and 1024^3) they are the first valid: 3x3 over all of N, first with K in
            // one slice (C written once, not re-read per slice: 76 GFLOP/s at 1024^3 against 70 for
            // 128/4096/256), then over tall A blocks.
            out.add(vector(ps, 64, 4096, 1024, 3, 3, 1, 1, threads));
            out.add(vector(ps, 256, 4096, 256, 3, 3, 1, 1, threads));
            out.add(vector(ps, 128, 4096, 256, 3, 3, 1, 1, threads));
            out.add(vector(ps, 128, 4096, 512, 3, 3, 1, 1, threads));
            out.add(vector(ps, 128, 4096, 256, 4, 2, 1, 1, threads));
        }
        return out.stream().distinct().toList();
    }

    private static Map<String, Object> vector(List<Parameter> ps, int tileM, int tileN, int tileK, int rows, int vecs, int packA, int packB,
                                              int threads) {
        return Tiles.config(ps, Map.of("kernel", "vector", "loopOrder", "ikj", "tileM", tileM, "tileN", tileN, "tileK", tileK,
                "microRows", rows, "microVecs", vecs, "packA", packA, "packB", packB, "threads", threads));
    }

    @Override public double flops(KernelKey key) {
        return 2.0 * key.dim("M") * key.dim("N") * key.dim("K");
    }
}
