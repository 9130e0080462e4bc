package org.tunefarm.coordinator.store;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.tunefarm.measure.Measurement;

/**
 * The ids of the records a log holds, each with the version of the measurement kept under it, in
 * 16 bytes a slot: a record id is known by 96 bits of its MurmurHash3 (x64, 128-bit) and the
 * version by 32. A log of 10^7 records keeps its ids in 256 MB this way, where the ids as strings
 * in a hash set took about 200 bytes each.
 *
 * <p>Why 96 bits are enough: two distinct ids of n share a fingerprint with probability about
 * n²/2^97, which for 10^8 records is below 10^-13; an id is then never taken for another (a record
 * lost as a "duplicate") in the life of any farm. Open addressing with linear probing, at most 3/4
 * full; not thread-safe (the log writes it from one thread and guards reads).
 */
final class RecordIds {
    /** Up to this share of slots filled before the table doubles. */
    private static final double LOAD = 0.75;

    /** The first 64 bits of the fingerprint; 0 marks an empty slot. */
    private long[] keys;
    /** The next 32 bits of the fingerprint (high half) and the version (low half). */
    private long[] tags;
    private int size;

    /** A table sized for {@code expected} ids without growing. */
    RecordIds(long expected) {
        int capacity = 16;
        while (capacity * LOAD < expected && capacity < (1 << 30)) capacity <<= 1;
        keys = new long[capacity];
        tags = new long[capacity];
    }

    /** Which measurement a record is, as opposed to which candidate: who took it, and when. */
    static int version(Measurement m) {
        return Objects.hash(m.agentId(), m.startedAt(), m.finishedAt());
    }

    int size() {
        return size;
    }

    boolean contains(String recordId) {
        long[] h = fingerprint(recordId);
        return find(h[0], h[1]) >= 0;
    }

    /** The version kept under this id, or null when the id is not kept. */
    Integer version(String recordId) {
        long[] h = fingerprint(recordId);
        int at = find(h[0], h[1]);
        return at < 0 ? null : (int) tags[at];
    }

    /** Keeps the id with its version unless it is kept already; true when it was new. */
    boolean add(String recordId, int version) {
        return add(fingerprint(recordId), version);
    }

    /** {@link #add(String, int)} with the id's {@link #fingerprint} worked out already. */
    boolean add(long[] h, int version) {
        if (find(h[0], h[1]) >= 0) return false;
        if (size + 1 > keys.length * LOAD) grow();
        put(h[0], h[1] | (version & 0xFFFF_FFFFL));
        size++;
        return true;
    }

    private int find(long key, long tagHigh) {
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == 0) return -1;
            if (k == key && (tags[i] & 0xFFFF_FFFF_0000_0000L) == tagHigh) return i;
        }
    }

    private void put(long key, long tag) {
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (keys[i] != 0) i = (i + 1) & mask;
        keys[i] = key;
        tags[i] = tag;
    }

    private void grow() {
        long[] oldKeys = keys, oldTags = tags;
        keys = new long[oldKeys.length * 2];
        tags = new long[oldTags.length * 2];
        for (int i = 0; i < oldKeys.length; i++) if (oldKeys[i] != 0) put(oldKeys[i], oldTags[i]);
    }

    private static int slot(long key, int mask) {
        return (int) (key ^ (key >>> 32)) & mask;
    }

    /** The id's first 64 fingerprint bits (never 0) and the next 32, in the high half of the second long. */
    static long[] fingerprint(String recordId) {
        long[] h = hash128(recordId.getBytes(StandardCharsets.UTF_8));
        long key = h[0] == 0 ? 1 : h[0];
        return new long[] {key, h[1] & 0xFFFF_FFFF_0000_0000L};
    }

    /**
     * A well-mixed 128-bit hash of a short key, after MurmurHash3_x64_128 (Austin Appleby, public
     * domain): its block and tail mixing and its finalizer. Only its spread matters here (it is
     * stored nowhere but in memory), which {@code RecordIdsTest} checks on a million ids.
     */
    static long[] hash128(byte[] data) {
        final long c1 = 0x87c37b91114253d5L, c2 = 0x4cf5ad432745937fL;
        long h1 = 0, h2 = 0;
        int blocks = data.length / 16;
        for (int i = 0; i < blocks; i++) {
            long k1 = littleEndian(data, i * 16), k2 = littleEndian(data, i * 16 + 8);
            k1 *= c1; k1 = Long.rotateLeft(k1, 31); k1 *= c2; h1 ^= k1;
            h1 = Long.rotateLeft(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
            k2 *= c2; k2 = Long.rotateLeft(k2, 33); k2 *= c1; h2 ^= k2;
            h2 = Long.rotateLeft(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
        }
        long k1 = 0, k2 = 0;
        int tail = blocks * 16;
        for (int i = data.length - tail - 1; i >= 8; i--) k2 = (k2 << 8) | (data[tail + i] & 0xFF);
        for (int i = Math.min(7, data.length - tail - 1); i >= 0; i--) k1 = (k1 << 8) | (data[tail + i] & 0xFF);
        if (data.length - tail > 8) {
            k2 *= c2; k2 = Long.rotateLeft(k2, 33); k2 *= c1; h2 ^= k2;
        }
        if (data.length - tail > 0) {
            k1 *= c1; k1 = Long.rotateLeft(k1, 31); k1 *= c2; h1 ^= k1;
        }
        h1 ^= data.length; h2 ^= data.length;
        h1 += h2; h2 += h1;
        h1 = fmix(h1); h2 = fmix(h2);
        h1 += h2; h2 += h1;
        return new long[] {h1, h2};
    }

    private static long littleEndian(byte[] b, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) v = (v << 8) | (b[at + i] & 0xFF);
        return v;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb93e77fa3b4bL;
        k ^= k >>> 33;
        return k;
    }
}
