package org.tunefarm.agent.kernels.gemm;

/**
 * GFLOP/s of each written-out micro-kernel alone, on packed panels that sit in L1: the ceiling a
 * tile can reach before blocking and packing take their share. A tile far below its neighbours
 * here spills (read its loop with {@code -XX:CompileCommand=print,*UnrolledMicroKernels::k3x3Packed}).
 * Not a test; run with {@code java --add-modules jdk.incubator.vector
 * -cp agent/target/classes:agent/target/test-classes:shared/target/classes
 * org.tunefarm.agent.kernels.gemm.MicroKernelProbe [kc]}, optionally with {@code -Dtunefarm.vectorBits=128}.
 */
public final class MicroKernelProbe {

    private static final int[][] TILES = {{3, 3}, {4, 1}, {4, 2}, {4, 3}, {6, 1}, {6, 2}, {8, 1}, {6, 3}, {8, 2}, {6, 4}, {8, 3}};

    public static void main(String[] args) {
        int kc = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int lanes = MicroKernel.lanes();
        for (int round = 0; round < 2; round++) {
            for (int[] t : TILES) {
                int rows = t[0], vecs = t[1], w = vecs * lanes;
                float[] a = new float[rows * kc], b = new float[w * kc], c = new float[rows * w];
                for (int i = 0; i < a.length; i++) a[i] = (i % 7) * 0.1f;
                for (int i = 0; i < b.length; i++) b[i] = (i % 5) * 0.1f;
                MicroKernel k = MicroKernel.forTile(rows, vecs);
                long calls = 0, warmCalls = 0, warmEnd = System.nanoTime() + 300_000_000L, end = warmEnd + 400_000_000L;
                long timedFrom = 0;
                while (System.nanoTime() < end) {
                    for (int i = 0; i < 1000; i++) k.run(kc, a, 0, 1, rows, b, 0, w, c, 0, w, false);
                    calls += 1000;
                    if (timedFrom == 0 && System.nanoTime() > warmEnd) {
                        timedFrom = System.nanoTime();
                        warmCalls = calls;
                    }
                }
                double seconds = (System.nanoTime() - timedFrom) / 1e9;
                System.out.printf("round %d %dx%d kc=%d: %.1f GFLOP/s%n", round, rows, vecs, kc,
                        2.0 * rows * w * kc * (calls - warmCalls) / seconds / 1e9);
            }
        }
    }
}
