package org.tunefarm.agent.kernels.gemm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.GemmSpec;
import org.tunefarm.kernel.KernelKey;

/**
 * Prints GFLOP/s of the default configuration and of hand-picked vector configurations, as
 * ratios over the default measured in the same run (timings on a shared machine drift; ratios
 * within one run hold). Not a test; run with
 * {@code java --add-modules jdk.incubator.vector -cp agent/target/classes:agent/target/test-classes:shared/target/classes
 * org.tunefarm.agent.kernels.gemm.GemmProbe [MxNxK ...]}. Add {@code -Dsweep=true} to also try a
 * grid of vector configurations and print the best of it.
 */
public final class GemmProbe {

    private static final GemmFamily FAMILY = new GemmFamily();

    public static void main(String[] args) {
        List<String> shapes = args.length > 0 ? List.of(args) : List.of("512x512x512", "1024x1024x1024", "1x4096x4096");
        System.out.printf("lanes=%d, JVM %s %s%n", MicroKernel.lanes(), System.getProperty("java.vendor"), System.getProperty("java.version"));
        for (String s : shapes) probe(s);
    }

    private static void probe(String shape) {
        int[] d = Arrays.stream(shape.split("x")).mapToInt(Integer::parseInt).toArray();
        KernelKey key = new KernelKey("gemm", Map.of("M", d[0], "N", d[1], "K", d[2]), "fp32");
        GemmWorkload w = (GemmWorkload) FAMILY.workload(key, 42);
        double flops = FAMILY.spec().flops(key);
        Map<String, Object> def = new GemmSpec().defaultConfig(key, 2);
        List<Map<String, Object>> configs = new ArrayList<>();
        configs.add(def);
        configs.addAll(picks(d[0]));
        if (Boolean.getBoolean("sweep")) configs.addAll(grid(d[0]));
        System.out.printf("%n== %s (bound %.2e)%n", shape, w.errorBound());
        double base = 0;
        String best = null;
        double bestG = 0;
        for (Map<String, Object> cfg : configs) {
            double g = flops / measure(w, cfg) / 1e9;
            if (cfg == def) base = g;
            String name = name(cfg);
            System.out.printf("%-58s %8.2f GFLOP/s  x%.1f%n", name, g, g / base);
            if (cfg != def && g > bestG) { bestG = g; best = name; }
        }
        System.out.printf("best: %s %.2f GFLOP/s x%.1f over default%n", best, bestG, bestG / base);
    }

    /** Best of several timed calls after a warm-up, in seconds; fails on a wrong answer. */
    private static double measure(GemmWorkload w, Map<String, Object> cfg) {
        try (KernelFamily.Candidate c = FAMILY.candidate(w, cfg)) {
            c.run();
            if (!(c.maxError() <= w.errorBound())) throw new AssertionError(name(cfg) + " wrong: " + c.maxError());
            long warmEnd = System.nanoTime() + 400_000_000L;
            while (System.nanoTime() < warmEnd) c.run();
            double best = Double.MAX_VALUE;
            long end = System.nanoTime() + 600_000_000L;
            for (int r = 0; r < 3 || System.nanoTime() < end; r++) {
                long t = System.nanoTime();
                c.run();
                best = Math.min(best, (System.nanoTime() - t) / 1e9);
            }
            return best;
        }
    }

    /** The best regions of a sweep on a 2-core Zen (AVX-512) VM, with 1 and 2 threads. */
    private static List<Map<String, Object>> picks(int m) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int threads = 1; threads <= 2; threads++) {
            if (m == 1) {
                out.add(vector(16, 4096, 64, 1, 3, 0, 0, threads));
                out.add(vector(16, 4096, 256, 1, 2, 0, 0, threads));
            } else {
                out.add(vector(64, 1024, 1024, 8, 2, 1, 1, threads));
                out.add(vector(64, 1024, 1024, 6, 3, 1, 1, threads));
                out.add(vector(128, 4096, 512, 6, 2, 1, 1, threads));
                out.add(vector(64, 4096, 128, 6, 2, 1, 1, threads));
                out.add(vector(64, 2048, 256, 6, 2, 0, 1, threads));
                out.add(vector(32, 4096, 128, 4, 3, 1, 1, threads));
                out.add(vector(64, 4096, 512, 8, 3, 1, 1, threads));
                out.add(vector(32, 512, 512, 6, 4, 1, 1, threads));
            }
        }
        return out;
    }

    private static List<Map<String, Object>> grid(int m) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (m == 1) {
            for (int vecs = 1; vecs <= 4; vecs++)
                for (int tileN : new int[] {512, 2048, 4096})
                    for (int tileK : new int[] {64, 256, 1024})
                        out.add(vector(16, tileN, tileK, 1, vecs, 0, 0, 1));
            return out;
        }
        int[][] tiles = {{6, 2}, {4, 3}, {6, 4}, {8, 3}, {8, 2}};
        for (int[] t : tiles)
            for (int tileK : new int[] {128, 256, 512})
                for (int tileM : new int[] {32, 64, 128})
                    for (int tileN : new int[] {512, 4096})
                        out.add(vector(tileM, tileN, tileK, t[0], t[1], 1, 1, 1));
        return out;
    }

    static Map<String, Object> vector(int tileM, int tileN, int tileK, int rows, int vecs, int packA, int packB, int threads) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kernel", "vector");
        m.put("loopOrder", "ikj");
        m.put("tileM", tileM);
        m.put("tileN", tileN);
        m.put("tileK", tileK);
        m.put("microRows", rows);
        m.put("microVecs", vecs);
        m.put("packA", packA);
        m.put("packB", packB);
        m.put("threads", threads);
        return m;
    }

    private static String name(Map<String, Object> c) {
        if (c.get("kernel").equals("scalar")) {
            return String.format("scalar %s %s/%s/%s packB%s t%s", c.get("loopOrder"), c.get("tileM"), c.get("tileN"), c.get("tileK"), c.get("packB"), c.get("threads"));
        }
        return String.format("vector %sx%s %s/%s/%s packA%s packB%s t%s", c.get("microRows"), c.get("microVecs"),
                c.get("tileM"), c.get("tileN"), c.get("tileK"), c.get("packA"), c.get("packB"), c.get("threads"));
    }
}
