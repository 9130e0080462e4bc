package org.tunefarm.coordinator.table;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Objective;
import org.tunefarm.protocol.Lease;
import org.tunefarm.table.BestKernelTable;
import org.tunefarm.table.TableEntry;

/**
 * The best-kernel table of the records folded in so far, one entry per slot, changed in place: a
 * start folds millions of records, and {@link BestKernelTable#with} copies the whole table for
 * each. Its entries are merged exactly as {@code with} merges them, so {@link #table} is the table
 * that folding the same records into {@link BestKernelTable} gives. Not thread-safe.
 */
public final class TableFold {
    /**
     * By the slot's parts rather than its text ({@link TableEntry#slot}, built from the kernel's id
     * for each record): the table orders its slots itself.
     */
    private final HashMap<Slot, TableEntry> slots = new HashMap<>();

    private record Slot(String deviceClass, KernelKey kernel, String objective) {}

    /**
     * Folds a record in, with the work of one call (0: no GFLOP/s); returns the entries of the slots
     * it changed: one per objective whose figure the record has, at most.
     */
    public List<TableEntry> fold(Measurement m, double flops) {
        List<TableEntry> changed = new ArrayList<>();
        for (Objective o : Objective.values()) {
            Double figure = o.figure(m);
            if (figure == null || !Double.isFinite(figure) || figure < 0) continue; // no entry in this slot ({@link TableEntry#entries})
            Slot slot = new Slot(m.deviceClass(), m.key(), o.text());
            TableEntry before = slots.get(slot);
            if (before != null && keeps(before, m, figure)) continue;
            TableEntry e = TableEntry.of(m, flops, o);
            TableEntry after = before == null ? e : TableEntry.merge(before, e);
            if (after == before) continue; // the record lost, and brought nothing the slot keeps
            slots.put(slot, after);
            if (!after.equals(before)) changed.add(after);
        }
        return changed;
    }

    /**
     * Whether merging the record's entry into {@code kept} would give {@code kept} back, told from
     * the record's own figures before an entry is built for it (its parameters copied, its
     * throughput worked out): most of a long history's records are such, and building their entries
     * was a tenth of a start. The conditions are {@link TableEntry#merge}'s: an older implementation
     * never displaces a newer one; otherwise a first-round record slower than {@code kept} loses,
     * and it brings nothing when it is no baseline, no finalist and has no energy (no Pareto point)
     * and {@code kept} already holds a baseline fact or none is to be had. Anything else is merged.
     */
    private static boolean keeps(TableEntry kept, Measurement m, double figure) {
        if (m.implementation() != kept.implementation()) return m.implementation() < kept.implementation();
        boolean slower = kept.round() > 0 || kept.figure() < figure;
        boolean bringsNothing = m.round() == 0 && m.index() != Lease.Candidate.BASELINE && m.energyJ() == null
                && (kept.defaultMedianNs() != null || (kept.defaultParams() == null && kept.defaultMeasuredAt() == 0));
        return slower && bringsNothing;
    }

    /** A snapshot of the table as folded so far. */
    public BestKernelTable table() {
        return BestKernelTable.of(slots.values());
    }

    public int size() {
        return slots.size();
    }
}
