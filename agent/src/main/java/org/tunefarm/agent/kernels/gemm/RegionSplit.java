package org.tunefarm.agent.kernels.gemm;

import java.util.ArrayList;
import java.util.List;

/**
 * One thread's block of the GEMM. Blocks split C along M or N, on micro-tile boundaries so no
 * thread gets a ragged edge the kernel must pad in the middle of C; or, when C is a single row of
 * micro-tiles (GEMV-like), they split K, and their partial Cs are summed.
 */
record RegionSplit(int m0, int m1, int n0, int n1, int k0, int k1) {

    /**
     * Splits into at most {@code threads} blocks, never more than there are micro-tiles (or K
     * steps) along the split side. Short, wide C splits along K: splitting N would give each
     * thread every other stretch of each row of B, two strided streams that together read memory
     * slower on this class of machine than one thread's sequential stream; splitting K gives each
     * thread a contiguous part of B.
     */
    static List<RegionSplit> of(int m, int n, int k, int threads, int alignM, int alignN) {
        if (m <= alignM && n > m) return along(k, threads, 1, (from, to) -> new RegionSplit(0, m, 0, n, from, to));
        if (alongM(m, n)) return along(m, threads, alignM, (from, to) -> new RegionSplit(from, to, 0, n, 0, k));
        return along(n, threads, alignN, (from, to) -> new RegionSplit(0, m, from, to, 0, k));
    }

    /** Whether C of m x n is split along M (tall or square C; a single row of micro-tiles is checked first). */
    static boolean alongM(int m, int n) {
        return m >= n;
    }

    /** Whether this block covers only part of K, so its output is a partial sum. */
    boolean partialK(int k) {
        return k0 > 0 || k1 < k;
    }

    private interface Block {
        RegionSplit of(int from, int to);
    }

    private static List<RegionSplit> along(int extent, int threads, int align, Block block) {
        int units = (extent + align - 1) / align;
        int parts = Math.max(1, Math.min(threads, units));
        List<RegionSplit> out = new ArrayList<>(parts);
        for (int t = 0; t < parts; t++) {
            int from = Math.min(extent, (int) ((long) units * t / parts) * align);
            int to = t == parts - 1 ? extent : Math.min(extent, (int) ((long) units * (t + 1) / parts) * align);
            out.add(block.of(from, to));
        }
        return out;
    }
}
