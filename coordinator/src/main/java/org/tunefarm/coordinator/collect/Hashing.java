package org.tunefarm.coordinator.collect;

/** Where a long key starts its probe: candidate indices are dense small numbers, so they are mixed first. */
final class Hashing {
    private Hashing() {}

    static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
