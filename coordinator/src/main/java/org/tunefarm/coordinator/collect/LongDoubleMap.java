package org.tunefarm.coordinator.collect;

/** A map from long to double in two parallel open-addressing arrays (linear probing, at most half full). No removal. */
public final class LongDoubleMap {
    /** What {@link #forEach} hands each entry to. */
    @FunctionalInterface
    public interface EntryConsumer {
        void accept(long key, double value);
    }

    private long[] keys = LongSet.free(16);
    private double[] values = new double[16];
    private int size;
    private boolean hasFree;
    private double freeValue;

    /** Sets the value of {@code key}, replacing any. */
    public void put(long key, double value) {
        insert(key, value, true);
    }

    /** Sets the value of {@code key} unless it has one; false when it had. */
    public boolean putIfAbsent(long key, double value) {
        return insert(key, value, false);
    }

    private boolean insert(long key, double value, boolean replace) {
        if (key == LongSet.FREE) {
            boolean fresh = !hasFree;
            if (fresh || replace) freeValue = value;
            if (fresh) size++;
            hasFree = true;
            return fresh;
        }
        int mask = keys.length - 1;
        for (int i = Hashing.slot(key, mask); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                if (replace) values[i] = value;
                return false;
            }
            if (k == LongSet.FREE) {
                keys[i] = key;
                values[i] = value;
                if (++size * 2 > keys.length) grow();
                return true;
            }
        }
    }

    public boolean containsKey(long key) {
        if (key == LongSet.FREE) return hasFree;
        return find(key) >= 0;
    }

    /** The value of {@code key}, or {@code absent} when it has none. */
    public double get(long key, double absent) {
        if (key == LongSet.FREE) return hasFree ? freeValue : absent;
        int i = find(key);
        return i < 0 ? absent : values[i];
    }

    private int find(long key) {
        int mask = keys.length - 1;
        for (int i = Hashing.slot(key, mask); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) return i;
            if (k == LongSet.FREE) return -1;
        }
    }

    public int size() { return size; }

    public boolean isEmpty() { return size == 0; }

    /** Every entry, in no particular order. */
    public void forEach(EntryConsumer each) {
        if (hasFree) each.accept(LongSet.FREE, freeValue);
        for (int i = 0; i < keys.length; i++) if (keys[i] != LongSet.FREE) each.accept(keys[i], values[i]);
    }

    private void grow() {
        long[] oldKeys = keys;
        double[] oldValues = values;
        keys = LongSet.free(oldKeys.length * 2);
        values = new double[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] == LongSet.FREE) continue;
            int i = Hashing.slot(oldKeys[j], mask);
            while (keys[i] != LongSet.FREE) i = (i + 1) & mask;
            keys[i] = oldKeys[j];
            values[i] = oldValues[j];
        }
    }
}
