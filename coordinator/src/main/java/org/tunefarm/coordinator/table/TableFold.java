package org.tunefarm.coordinator.table;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.tunefarm.measure.Measurement;
import org.tunefarm.table.BestKernelTable;
import org.tunefarm.table.TableEntry;

/**
 * The best-kernel table of the records folded in so far, one entry per slot, changed in place: a
 * start folds millions of records, and {@link BestKernelTable#with} copies the whole table for
 * each. Its entries are merged exactly as {@code with} merges them, so {@link #table} is the table
 * that folding the same records into {@link BestKernelTable} gives. Not thread-safe.
 */
public final class TableFold {
    private final TreeMap<String, TableEntry> slots = new TreeMap<>();

    /**
     * Folds a record in, with the work of one call (0: no GFLOP/s); returns the entries of the slots
     * it changed: one per objective whose figure the record has, at most.
     */
    public List<TableEntry> fold(Measurement m, double flops) {
        List<TableEntry> changed = new ArrayList<>();
        for (TableEntry e : TableEntry.entries(m, flops)) {
            String slot = e.slot(); // text built from the kernel's id: once per record, not per use
            TableEntry before = slots.get(slot);
            TableEntry after = before == null ? e : TableEntry.merge(before, e);
            slots.put(slot, after);
            if (!after.equals(before)) changed.add(after);
        }
        return changed;
    }

    /** A snapshot of the table as folded so far. */
    public BestKernelTable table() {
        return BestKernelTable.of(slots.values());
    }

    public int size() {
        return slots.size();
    }
}
