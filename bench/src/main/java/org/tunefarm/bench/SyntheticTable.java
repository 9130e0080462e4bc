package org.tunefarm.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.tunefarm.protocol.Protocol;

/**
 * A {@code tunefarm.table/2} document of the size a fleet's table reaches: {@code classes} device
 * classes, each with {@code shapes} tuned fp32 GEMM shapes drawn from the sizes layers use, every
 * entry with its winner and the family default, as the coordinator writes them.
 */
final class SyntheticTable {

    /** Sizes of GEMM dimensions in networks: batch 1, powers of two and the 1.5x steps between. */
    static final int[] SIZES = {1, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096};

    private SyntheticTable() {}

    static String className(int c) {
        return "zen4-" + (2 << (c % 4)) + "c-avx" + (c % 2 == 0 ? 512 : 256) + "-jdk25-" + String.format("%08x", 0x5f501851 + c);
    }

    static String json(int classes, int shapesPerClass, long seed) {
        if (shapesPerClass > SIZES.length * SIZES.length * SIZES.length) throw new IllegalArgumentException("at most " + SIZES.length * SIZES.length * SIZES.length + " shapes per class");
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", "tunefarm.table/2");
        doc.put("farmId", "00000000-0000-4000-8000-000000000000");
        doc.put("generatedAt", 1764770000000L);
        doc.put("sweeps", List.of("s-bench"));
        Map<String, Object> profiles = new LinkedHashMap<>();
        List<Map<String, Object>> entries = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(seed);
        for (int c = 0; c < classes; c++) {
            String name = className(c);
            int bits = c % 2 == 0 ? 512 : 256;
            profiles.put(name, Map.of("cpuModel", "AMD EPYC 9B14", "physicalCores", 2 << (c % 4), "jvmMajor", 25, "vectorBits", bits, "isa", "avx" + bits));
            Set<List<Integer>> seen = new HashSet<>();
            while (seen.size() < shapesPerClass) {
                List<Integer> mnk = List.of(pick(random), pick(random), pick(random));
                if (!seen.add(mnk)) continue;
                double medianNs = 2.0 * mnk.get(0) * mnk.get(1) * mnk.get(2) / 100.0 + 1000; // about 100 GFLOP/s
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("deviceClass", name);
                e.put("objective", "latency");
                e.put("kernel", Map.of("op", "gemm", "shape", Map.of("M", mnk.get(0), "N", mnk.get(1), "K", mnk.get(2)), "dtype", "fp32"));
                e.put("params", Map.of("kernel", "vector", "loopOrder", "ikj", "tileM", 64, "tileN", 256, "tileK", 128,
                        "microRows", 4, "microVecs", 2, "packA", 1, "packB", 1, "threads", 2));
                e.put("defaultParams", Map.of("kernel", "scalar", "loopOrder", "ikj", "tileM", 64, "tileN", 256, "tileK", 128,
                        "microRows", 1, "microVecs", 1, "packA", 0, "packB", 0, "threads", 1));
                e.put("stats", Map.of("medianNs", medianNs, "minNs", medianNs * 0.98, "cv", 0.01, "samples", 10));
                e.put("gflops", 2.0 * mnk.get(0) * mnk.get(1) * mnk.get(2) / medianNs);
                e.put("speedupOverDefault", 10.0);
                e.put("agentId", "board-" + c);
                e.put("measuredAt", 1764770000000L);
                e.put("sweepId", "s-bench");
                e.put("index", entries.size());
                e.put("defaultMedianNs", medianNs * 10);
                e.put("defaultMeasuredAt", 1764769990000L);
                e.put("round", 1);
                entries.add(e);
            }
        }
        doc.put("classes", profiles);
        doc.put("entries", entries);
        try {
            return Protocol.JSON.writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("plain maps and numbers", e);
        }
    }

    private static int pick(SplittableRandom random) {
        return SIZES[random.nextInt(SIZES.length)];
    }
}
