package org.tunefarm.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The index's walk by volume answers what the rules say, checked against the rules written out
 * plainly (every tuned shape's distance by logarithms, the smallest, ties to the smaller id) on
 * random tables whose sizes come from a short list, so that ties are common.
 */
class NearestReferenceTest {

    private static final int[] SIZES = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64};

    /** The rules, plainly: null for no answer, else "RULE kernel-id". */
    private static String reference(List<int[]> tuned, List<String> ids, int[] q, double maxDistance, String fallbackId) {
        int best = -1;
        double bestD = Double.POSITIVE_INFINITY;
        for (int e = 0; e < tuned.size(); e++) {
            double d = KernelIndex.distance(tuned.get(e), q);
            if (d == 0) return "EXACT " + ids.get(e);
            if (d < bestD - 1e-9 || (Math.abs(d - bestD) <= 1e-9 && ids.get(e).compareTo(ids.get(best)) < 0)) {
                best = e;
                bestD = d;
            }
        }
        if (best >= 0 && bestD <= maxDistance + 1e-9) return "NEAREST " + ids.get(best);
        return fallbackId == null ? null : "DEFAULT " + fallbackId;
    }

    @Test void agreesWithTheRulesOnRandomTables() throws Exception {
        SplittableRandom random = new SplittableRandom(2024);
        Map<ShapeRule, Integer> seen = new EnumMap<>(ShapeRule.class);
        int checked = 0;
        for (int t = 0; t < 40; t++) {
            int dims = 1 + random.nextInt(3);
            List<String> names = List.of("A", "B", "C").subList(0, dims);
            Map<String, int[]> byId = new TreeMap<>();
            List<Map<String, Object>> entries = new ArrayList<>();
            int shapes = 1 + random.nextInt(30);
            for (int i = 0; i < shapes; i++) {
                Map<String, Integer> shape = new TreeMap<>();
                for (String n : names) shape.put(n, SIZES[random.nextInt(SIZES.length)]);
                StringBuilder id = new StringBuilder("k[");
                shape.forEach((k, v) -> id.append(id.length() > 2 ? "," : "").append(k).append('=').append(v));
                String kernelId = id.append("]:fp32").toString();
                if (byId.containsKey(kernelId)) continue;
                byId.put(kernelId, shape.values().stream().mapToInt(Integer::intValue).toArray());
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("deviceClass", "c");
                e.put("objective", "latency");
                e.put("kernel", Map.of("op", "k", "shape", shape, "dtype", "fp32"));
                e.put("params", Map.of("id", kernelId));
                if (random.nextInt(3) == 0) e.put("defaultParams", Map.of("default", true));
                entries.add(e);
            }
            String fallbackId = entries.stream().filter(e -> e.containsKey("defaultParams"))
                    .map(e -> (String) ((Map<?, ?>) e.get("params")).get("id")).sorted().findFirst().orElse(null);
            double maxDistance = List.of(0.0, 0.5, Table.DEFAULT_MAX_DISTANCE, 3.0, Double.POSITIVE_INFINITY).get(random.nextInt(5));
            Table table = Table.parse(new ObjectMapper().writeValueAsString(Map.of("schema", "tunefarm.table/2", "entries", entries)));
            KernelIndex index = table.forDevice(Device.ofClass("c"), maxDistance).kernel("k", "fp32").orElseThrow();
            List<String> ids = new ArrayList<>(byId.keySet());
            List<int[]> tuned = new ArrayList<>(byId.values());
            for (int q = 0; q < 200; q++) {
                int[] shape = new int[dims];
                for (int j = 0; j < dims; j++) shape[j] = SIZES[random.nextInt(SIZES.length)] + (random.nextInt(4) == 0 ? random.nextInt(3) : 0);
                Answer a = index.lookup(shape);
                String got = a == null ? null : a.shapeRule() + " " + a.kernelId();
                assertEquals(reference(tuned, ids, shape, maxDistance, fallbackId), got,
                        java.util.Arrays.toString(shape) + " in " + ids + " within " + maxDistance);
                if (a != null) seen.merge(a.shapeRule(), 1, Integer::sum);
                checked++;
            }
        }
        assertEquals(8000, checked);
        for (ShapeRule r : ShapeRule.values()) assertTrue(seen.getOrDefault(r, 0) > 100, "too few " + r + ": " + seen);
    }
}
