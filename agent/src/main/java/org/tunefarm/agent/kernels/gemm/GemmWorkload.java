package org.tunefarm.agent.kernels.gemm;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;

/**
 * A and B drawn from a seed, and the reference C computed in double precision. Candidates share
 * the inputs read-only and each writes its own C.
 */
final class GemmWorkload implements KernelFamily.Workload {

    /** fp32 machine epsilon, 2^-23. */
    private static final double EPSILON = Math.ulp(1.0f);

    private final KernelKey key;
    final int m, n, k;
    final float[] a, b;
    private final double[] reference;
    private final double errorBound;

    GemmWorkload(KernelKey key, long seed) {
        this.key = key;
        m = key.dim("M");
        n = key.dim("N");
        k = key.dim("K");
        if ((long) m * k > Integer.MAX_VALUE - 64 || (long) k * n > Integer.MAX_VALUE - 64 || (long) m * n > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("shape " + key.id() + " has a matrix beyond 2^31 elements");
        }
        SplittableRandom random = new SplittableRandom(seed);
        a = fill(random, m * k);
        b = fill(random, k * n);
        reference = new double[m * n];
        // Rows are independent, so the parallel reference is identical to the sequential one.
        IntStream.range(0, m).parallel().forEach(this::referenceRow);
        double largest = 1;
        for (double v : reference) largest = Math.max(largest, Math.abs(v));
        // Reordered fp32 sums of K products err by at most about K * eps * sum|a||b|; with inputs
        // in [-1, 1) and a factor 4 of margin, K * eps * 4 * max|C| stays above that in practice
        // while a dropped or doubled product (error ~0.1-1) still exceeds it.
        errorBound = 4.0 * k * EPSILON * largest;
    }

    @Override public KernelKey key() { return key; }

    @Override public double errorBound() { return errorBound; }

    /** Largest absolute difference between a candidate's C and the reference. */
    double maxError(float[] c) {
        double worst = 0;
        for (int i = 0; i < reference.length; i++) {
            double d = Math.abs(c[i] - reference[i]);
            if (Double.isNaN(d)) return Double.POSITIVE_INFINITY; // never within any bound
            if (d > worst) worst = d;
        }
        return worst;
    }

    /** Values in [-1, 1) on a 2^-23 grid, so every one is exact in fp32. */
    private static float[] fill(SplittableRandom random, int count) {
        float[] out = new float[count];
        for (int i = 0; i < count; i++) out[i] = (random.nextInt(1 << 24) - (1 << 23)) * 0x1p-23f;
        return out;
    }

    /** i-k-j in double: streams rows of B, which keeps 1024^3 at a few seconds. */
    private void referenceRow(int i) {
        double[] row = new double[n];
        for (int p = 0; p < k; p++) {
            double aip = a[i * k + p];
            int bRow = p * n;
            for (int j = 0; j < n; j++) row[j] += aip * b[bRow + j];
        }
        System.arraycopy(row, 0, reference, i * n, n);
    }
}
