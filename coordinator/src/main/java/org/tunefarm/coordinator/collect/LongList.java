package org.tunefarm.coordinator.collect;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

/** A growable list of longs in one array, readable as a {@code List<Long>} without boxing what it holds. */
public final class LongList {
    private long[] items = new long[8];
    private int size;

    public void add(long v) {
        insert(size, v);
    }

    /** Puts {@code v} at {@code at}, moving what follows one place on. */
    public void insert(int at, long v) {
        if (at < 0 || at > size) throw new IndexOutOfBoundsException("position " + at + " of " + size);
        if (size == items.length) items = Arrays.copyOf(items, items.length * 2);
        System.arraycopy(items, at, items, at + 1, size - at);
        items[at] = v;
        size++;
    }

    public long get(int i) {
        if (i < 0 || i >= size) throw new IndexOutOfBoundsException("position " + i + " of " + size);
        return items[i];
    }

    public int size() { return size; }

    /** A live, read-only view. */
    public List<Long> view() {
        return new AbstractList<>() {
            @Override public Long get(int i) {
                return LongList.this.get(i);
            }

            @Override public int size() {
                return size;
            }
        };
    }
}
