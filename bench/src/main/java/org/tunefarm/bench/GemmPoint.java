package org.tunefarm.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import org.tunefarm.kernel.KernelKey;

/** Points of the GEMM space written out by hand, and the keys of the shapes the benches use. */
final class GemmPoint {

    private GemmPoint() {}

    static KernelKey key(int m, int n, int k) {
        return new KernelKey("gemm", Map.of("M", m, "N", n, "K", k), "fp32");
    }

    static Map<String, Object> scalar(String loopOrder, int tileM, int tileN, int tileK, int packB, int threads) {
        return point("scalar", loopOrder, tileM, tileN, tileK, 1, 1, 0, packB, threads);
    }

    static Map<String, Object> vector(int tileM, int tileN, int tileK, int rows, int vecs, int packA, int packB, int threads) {
        return point("vector", "ikj", tileM, tileN, tileK, rows, vecs, packA, packB, threads);
    }

    private static Map<String, Object> point(String kernel, String loopOrder, int tileM, int tileN, int tileK,
                                             int rows, int vecs, int packA, int packB, int threads) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kernel", kernel);
        m.put("loopOrder", loopOrder);
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

    /** A short name for tables: "vector 6x2 64/2048/256 A1B1 t2". */
    static String name(Map<String, Object> p) {
        String tiles = p.get("tileM") + "/" + p.get("tileN") + "/" + p.get("tileK");
        if ("scalar".equals(p.get("kernel"))) {
            return "scalar " + p.get("loopOrder") + " " + tiles + " B" + p.get("packB") + " t" + p.get("threads");
        }
        return "vector " + p.get("microRows") + "x" + p.get("microVecs") + " " + tiles
                + " A" + p.get("packA") + "B" + p.get("packB") + " t" + p.get("threads");
    }
}
