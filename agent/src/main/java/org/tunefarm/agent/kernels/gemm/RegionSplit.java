package org.tunefarm.agent.kernels.gemm;

import java.util.ArrayList;
import java.util.List;

/**
 * How C is shared among threads: contiguous blocks along M or along N, with boundaries on
 * micro-tile multiples so no thread gets a ragged edge the kernel must pad in the middle of C.
 */
record RegionSplit(int m0, int m1, int n0, int n1) {

    /**
     * Splits along the longer side (M for GEMV-like shapes is 1, so those split along N), into
     * at most {@code threads} blocks and never more than there are micro-tiles along that side.
     */
    static List<RegionSplit> of(int m, int n, int threads, int alignM, int alignN) {
        boolean alongM = m >= n;
        int extent = alongM ? m : n;
        int align = alongM ? alignM : alignN;
        int units = (extent + align - 1) / align;
        int parts = Math.max(1, Math.min(threads, units));
        List<RegionSplit> out = new ArrayList<>(parts);
        for (int t = 0; t < parts; t++) {
            int from = Math.min(extent, (int) ((long) units * t / parts) * align);
            int to = t == parts - 1 ? extent : Math.min(extent, (int) ((long) units * (t + 1) / parts) * align);
            out.add(alongM ? new RegionSplit(from, to, 0, n) : new RegionSplit(0, m, from, to));
        }
        return out;
    }
}
