package org.tunefarm.coordinator.collect;

import java.util.Arrays;

/** A set of longs in one open-addressing array (linear probing, at most half full). No removal. */
public final class LongSet {
    /** Marks a free slot; the value itself, should it be added, is kept apart. */
    static final long FREE = Long.MIN_VALUE;

    private long[] slots = free(16);
    private int size;
    private boolean hasFree;

    /** Adds {@code v}; false when it was already in. */
    public boolean add(long v) {
        if (v == FREE) {
            if (hasFree) return false;
            hasFree = true;
            size++;
            return true;
        }
        int mask = slots.length - 1;
        for (int i = Hashing.slot(v, mask); ; i = (i + 1) & mask) {
            long s = slots[i];
            if (s == v) return false;
            if (s == FREE) {
                slots[i] = v;
                if (++size * 2 > slots.length) grow();
                return true;
            }
        }
    }

    public boolean contains(long v) {
        if (v == FREE) return hasFree;
        int mask = slots.length - 1;
        for (int i = Hashing.slot(v, mask); ; i = (i + 1) & mask) {
            long s = slots[i];
            if (s == v) return true;
            if (s == FREE) return false;
        }
    }

    public int size() { return size; }

    private void grow() {
        long[] old = slots;
        slots = free(old.length * 2);
        int mask = slots.length - 1;
        for (long v : old) {
            if (v == FREE) continue;
            int i = Hashing.slot(v, mask);
            while (slots[i] != FREE) i = (i + 1) & mask;
            slots[i] = v;
        }
    }

    static long[] free(int n) {
        long[] a = new long[n];
        Arrays.fill(a, FREE);
        return a;
    }
}
