package org.tunefarm.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tunefarm.space.Parameter;

/** Tile domains cut to a shape, and configurations picked from them, for the GEMM and convolution specs. */
final class Tiles {

    private Tiles() {}

    /** The tiles below the extent, plus the smallest tile covering it: larger ones all behave alike. */
    static int[] fitting(int[] tiles, int extent) {
        List<Integer> out = new ArrayList<>();
        for (int t : tiles) {
            out.add(t);
            if (t >= extent) break;
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The preferred value when the domain has it, else the largest below it, else the smallest. */
    static Object nearest(Parameter p, Object preferred) {
        if (p.choiceOf(preferred) >= 0 || !p.isInteger()) return preferred;
        int want = (Integer) preferred;
        Object best = p.values().get(0);
        for (Object v : p.values()) if ((Integer) v <= want) best = v;
        return best;
    }

    /** One value per parameter, each the nearest to the preferred one, in declaration order. */
    static Map<String, Object> config(List<Parameter> ps, Map<String, Object> preferred) {
        Map<String, Object> config = new java.util.LinkedHashMap<>();
        for (Parameter p : ps) config.put(p.name(), nearest(p, preferred.get(p.name())));
        return config;
    }
}
