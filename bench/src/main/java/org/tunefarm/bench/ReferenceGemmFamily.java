package org.tunefarm.bench;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.ejml.concurrency.EjmlConcurrency;
import org.ejml.data.FMatrixRMaj;
import org.ejml.dense.row.CommonOps_FDRM;
import org.ejml.dense.row.CommonOps_MT_FDRM;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/**
 * The GEMMs the tuned kernel is compared with, as a kernel family so that the same harness
 * (verify, warm up, sample) measures them exactly as it measures the tuned one: the naive i-j-k
 * loop, EJML's {@code CommonOps_FDRM.mult} and its concurrent {@code CommonOps_MT_FDRM.mult}.
 * Its own operation name keeps the harness's workload cache from mixing it with {@code gemm}.
 */
final class ReferenceGemmFamily implements KernelFamily {

    static final String OP = "gemm-reference";

    private static final KernelSpec SPEC = new KernelSpec() {
        @Override public String op() { return OP; }

        @Override public List<String> dimensions() { return List.of("M", "N", "K"); }

        @Override public SearchSpace space(KernelKey key, int cores) {
            return SearchSpace.of(List.of(Parameter.strings("impl", "naive", "ejml", "ejml-mt"),
                    Parameter.ints("threads", IntStream.rangeClosed(1, cores).toArray())), List.of());
        }

        @Override public Map<String, Object> defaultConfig(KernelKey key, int cores) { return Map.of("impl", "naive", "threads", 1); }

        @Override public double flops(KernelKey key) { return 2.0 * key.dim("M") * key.dim("N") * key.dim("K"); }
    };

    static KernelKey key(int m, int n, int k) {
        return new KernelKey(OP, Map.of("M", m, "N", n, "K", k), "fp32");
    }

    @Override public KernelSpec spec() { return SPEC; }

    @Override public Workload workload(KernelKey key, long seed) {
        SPEC.validate(key);
        return new Inputs(key, seed);
    }

    @Override public Candidate candidate(Workload workload, Map<String, Object> params) {
        Inputs w = (Inputs) workload;
        String impl = String.valueOf(params.get("impl"));
        int threads = params.get("threads") instanceof Number t ? t.intValue() : 1;
        FMatrixRMaj c = new FMatrixRMaj(w.m, w.n);
        Runnable run = switch (impl) {
            case "naive" -> () -> naive(w, c.data);
            case "ejml" -> () -> CommonOps_FDRM.mult(w.a, w.b, c);
            case "ejml-mt" -> {
                // EJML's pool is global; the bench measures one candidate at a time, so setting it here is safe.
                EjmlConcurrency.setMaxThreads(threads);
                yield () -> CommonOps_MT_FDRM.mult(w.a, w.b, c);
            }
            default -> throw new IllegalArgumentException("impl: expected naive, ejml or ejml-mt, got " + impl);
        };
        return new Candidate() {
            @Override public void run() { run.run(); }

            @Override public double maxError() { return w.maxError(c.data); }
        };
    }

    /** The textbook loop: i, j, then the dot product along K, reading B down a column. */
    private static void naive(Inputs w, float[] c) {
        float[] a = w.a.data, b = w.b.data;
        int n = w.n, k = w.k;
        for (int i = 0; i < w.m; i++) {
            for (int j = 0; j < n; j++) {
                float s = 0;
                for (int p = 0; p < k; p++) s += a[i * k + p] * b[p * n + j];
                c[i * n + j] = s;
            }
        }
    }

    /** A and B from a seed, the reference in double, the same error bound as the gemm family's. */
    private static final class Inputs implements Workload {
        private final KernelKey key;
        final int m, n, k;
        final FMatrixRMaj a, b;
        private final double[] reference;
        private final double bound;

        Inputs(KernelKey key, long seed) {
            this.key = key;
            m = key.dim("M");
            n = key.dim("N");
            k = key.dim("K");
            SplittableRandom r = new SplittableRandom(seed);
            a = new FMatrixRMaj(m, k);
            b = new FMatrixRMaj(k, n);
            for (int i = 0; i < a.data.length; i++) a.data[i] = (r.nextInt(1 << 24) - (1 << 23)) * 0x1p-23f;
            for (int i = 0; i < b.data.length; i++) b.data[i] = (r.nextInt(1 << 24) - (1 << 23)) * 0x1p-23f;
            reference = new double[m * n];
            IntStream.range(0, m).parallel().forEach(i -> {
                for (int p = 0; p < k; p++) {
                    double aip = a.data[i * k + p];
                    for (int j = 0; j < n; j++) reference[i * n + j] += aip * b.data[p * n + j];
                }
            });
            double largest = 1;
            for (double v : reference) largest = Math.max(largest, Math.abs(v));
            bound = 4.0 * k * Math.ulp(1.0f) * largest;
        }

        @Override public KernelKey key() { return key; }

        @Override public double errorBound() { return bound; }

        double maxError(float[] c) {
            double worst = 0;
            for (int i = 0; i < reference.length; i++) {
                double d = Math.abs(c[i] - reference[i]);
                if (!(d <= worst)) worst = Double.isNaN(d) ? Double.POSITIVE_INFINITY : d;
            }
            return worst;
        }
    }
}
