package org.tunefarm.coordinator.sweep;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunefarm.space.SearchSpace;

/** Interim: the strategies a sweep can name, until the strategy package lands. */
final class StrategyCatalog {
    private StrategyCatalog() {}

    static void check(String name, Map<String, Object> options) {
        if (!List.of("random", "exhaustive").contains(name)) throw new SpecException("strategy.name", "unknown strategy '" + name + "' (known: [exhaustive, random])");
        if (!options.isEmpty()) throw new SpecException("strategy.options." + options.keySet().iterator().next(), "unknown option");
    }

    /** Proposes up to n new valid indices; empty when the space is exhausted. */
    interface Proposer {
        List<Long> propose(int n);
    }

    static Proposer create(String name, SearchSpace space, long seed) {
        if (name.equals("exhaustive")) {
            var it = space.validIndices();
            return n -> {
                List<Long> out = new java.util.ArrayList<>();
                while (out.size() < n && it.hasNext()) out.add(it.next());
                return out;
            };
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        java.util.Set<Long> seen = new java.util.HashSet<>();
        return n -> {
            List<Long> out = new java.util.ArrayList<>();
            int misses = 0;
            while (out.size() < n && misses < 1000) {
                var s = space.sample(rnd, 10_000);
                if (s.isEmpty()) break;
                if (seen.add(s.getAsLong())) out.add(s.getAsLong());
                else misses++;
            }
            return out;
        };
    }

}
