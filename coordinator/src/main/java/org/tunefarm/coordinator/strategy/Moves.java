package org.tunefarm.coordinator.strategy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.tunefarm.space.SearchSpace;

/** Ways to step from a point to nearby valid points, shared by the local searches. */
final class Moves {
    private Moves() {}

    /** Valid points that differ from {@code index} in exactly one parameter, by any amount. */
    static List<Long> hamming(SearchSpace space, long index) {
        int[] c = space.choices(index);
        List<Long> out = new ArrayList<>();
        for (int p = 0; p < c.length; p++) {
            int old = c[p];
            for (int v = 0; v < space.parameters().get(p).size(); v++) {
                if (v == old) continue;
                c[p] = v;
                if (space.isValid(c)) out.add(space.index(c));
            }
            c[p] = old;
        }
        return out;
    }

    /**
     * A valid point reached by changing each parameter with probability {@code rate} (at least
     * one changes), mostly by one step along its ordered domain, sometimes to any value. Tries a
     * few times; -1 when every try was invalid.
     */
    static long mutate(SearchSpace space, long index, double rate, SplittableRandom rng) {
        if (space.parameters().stream().allMatch(p -> p.size() < 2)) return -1;
        for (int t = 0; t < 20; t++) {
            int[] c = space.choices(index);
            boolean changed = false;
            while (!changed) {
                for (int p = 0; p < c.length; p++) {
                    int size = space.parameters().get(p).size();
                    if (size < 2 || rng.nextDouble() >= rate) continue;
                    c[p] = step(c[p], size, rng);
                    changed = true;
                }
                if (!changed) {
                    int p = rng.nextInt(c.length);
                    int size = space.parameters().get(p).size();
                    if (size < 2) continue;
                    c[p] = step(c[p], size, rng);
                    changed = true;
                }
            }
            if (space.isValid(c)) return space.index(c);
        }
        return -1;
    }

    private static int step(int choice, int size, SplittableRandom rng) {
        if (rng.nextDouble() < 0.5) {
            int v = rng.nextInt(size - 1);
            return v >= choice ? v + 1 : v;
        }
        int v = choice + (rng.nextBoolean() ? 1 : -1);
        if (v < 0) return 1;
        if (v >= size) return size - 2;
        return v;
    }

    /** Uniform crossover of two parents' choices; -1 when the child is invalid. */
    static long crossover(SearchSpace space, long a, long b, SplittableRandom rng) {
        int[] ca = space.choices(a), cb = space.choices(b);
        for (int p = 0; p < ca.length; p++) if (rng.nextBoolean()) ca[p] = cb[p];
        return space.isValid(ca) ? space.index(ca) : -1;
    }
}
