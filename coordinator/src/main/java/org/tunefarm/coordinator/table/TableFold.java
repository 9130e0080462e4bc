package org.tunefarm.coordinator.table;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.tunefarm.kernel.KernelKey;
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
        for (TableEntry e : TableEntry.entries(m, flops)) {
            Slot slot = new Slot(e.deviceClass(), e.kernel(), e.objective());
            TableEntry before = slots.get(slot);
            TableEntry after = before == null ? e : TableEntry.merge(before, e);
            if (after == before) continue; // the record lost, and brought nothing the slot keeps
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
