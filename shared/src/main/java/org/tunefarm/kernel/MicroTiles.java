package org.tunefarm.kernel;

/**
 * The register-blocked micro-tile the GEMM and conv2d families share: {@code microRows} rows of A
 * times {@code microVecs} vectors of B, its accumulators held in vector registers for a whole K
 * slice. What a tile needs there: its accumulators, one B vector per accumulator column, and its
 * A broadcasts. C2 schedules every broadcast of a k step ahead of the FMAs that use it, so in a
 * 16-register file (AVX2) a tile needs one register per row: on a Zen 3, 4x3 and 6x2 (12
 * accumulators) spilled an accumulator to the stack every k step and ran a 512^3 GEMM at 34
 * GFLOP/s, 3x3 (9 accumulators, 15 registers) at 78. In the 32 of AVX-512, NEON and SVE one
 * broadcast is counted: 6x4 and 8x3 measured fastest there once; on a Zen 5 with Temurin 25 they
 * ran 123-153 GFLOP/s alone on L1-resident panels, 6x3 and 8x2 214-220 (MicroKernelProbe); in a
 * later run there 6x4 ran 203-208, 8x3 159. In a GEMM their stores were a call C2 left out of line
 * (gemm 11 writes them inline): 6x4 ran 98-112 GFLOP/s at 512^3 and 1024^3 before, 171-185 after.
 *
 * <p>Tried and not adopted: a float[] store of a partial sum into the C tile after every second
 * row keeps the next broadcasts (float[] loads) below it in C2's schedule, so 6x2 fits 16
 * registers; on L1-resident panels on a Zen 3 it ran 81-87 GFLOP/s against 39 without, but in a
 * packed 1024^3 GEMM in one JVM it measured 0.98x of 3x3 (all stores to the tile's first vector)
 * or 0.72x (each store to its own row, 4 KB apart): the micro-kernel is not what the AVX2 GEMM
 * lacks there. On a Zen 5 under {@code -XX:UseAVX=2} (the 256-bit peak 112 GFLOP/s, OpenBLAS's
 * Haswell set 102-107 at 512^3), a scalar store of one lane (the C tile's first float, restored
 * after the loop) after rows 2 and 4 held 6x2 in registers at 106-110 on L1-resident panels,
 * against 98-102 for 3x3, but the packed 512^3 GEMM on it ran 44 GFLOP/s, 3x3 86-92: with panels
 * streaming through L2 the store held the broadcasts back (the likely cause, not confirmed with
 * counters, the core's memory-dependence prediction once a streamed address aliased it). And 5x2
 * (10 + 2 + 5 = 17): written by hand it kept its broadcasts to three and ran 102-107 there, but
 * the generated kernel had all five ahead of the FMAs and spilled (35 GFLOP/s at 512^3).
 */
final class MicroTiles {

    private MicroTiles() {}

    /** The constraint, over {@code microRows} and {@code microVecs}, that a tile fits {@code registers} vector registers. */
    static String fitRegisters(int registers) {
        String broadcasts = registers <= 16 ? "microRows" : "1";
        return "microRows * microVecs + microVecs + " + broadcasts + " <= " + registers;
    }
}
