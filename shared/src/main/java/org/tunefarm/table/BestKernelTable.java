package org.tunefarm.table;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.tunefarm.kernel.KernelKey;

/**
 * (device class, kernel key, objective) → the best known kernel. Immutable; {@link #merge} is a pure function
 * that is commutative, associative and idempotent, so tables from any coordinator, in any order,
 * combine to one answer.
 */
public final class BestKernelTable {

    /** Schema tag of the exported document ({@link TableDocument}). */
    public static final String SCHEMA = "tunefarm.table/2";

    public static final BestKernelTable EMPTY = new BestKernelTable(new TreeMap<>());

    private final TreeMap<String, TableEntry> entries;

    private BestKernelTable(TreeMap<String, TableEntry> entries) {
        this.entries = entries;
    }

    /** The table of these entries, each folded in as {@link #with} would, in one map rather than a copy per entry. */
    public static BestKernelTable of(Collection<TableEntry> entries) {
        TreeMap<String, TableEntry> m = new TreeMap<>();
        for (TableEntry e : entries) if (e != null) m.merge(e.slot(), e, TableEntry::merge);
        return new BestKernelTable(m);
    }

    /** This table with one more piece of evidence folded in. */
    public BestKernelTable with(TableEntry e) {
        if (e == null) return this;
        TreeMap<String, TableEntry> m = new TreeMap<>(entries);
        m.merge(e.slot(), e, TableEntry::merge);
        return new BestKernelTable(m);
    }

    public static BestKernelTable merge(BestKernelTable a, BestKernelTable b) {
        TreeMap<String, TableEntry> m = new TreeMap<>(a.entries);
        b.entries.forEach((k, v) -> m.merge(k, v, TableEntry::merge));
        return new BestKernelTable(m);
    }

    /** The latency entry of this class and kernel. */
    public Optional<TableEntry> lookup(String deviceClass, KernelKey key) {
        return Optional.ofNullable(entries.get(TableEntry.slot(deviceClass, key, TableEntry.LATENCY)));
    }

    /** The entry of this class and kernel for {@code objective}; empty when no record had its figure (never another objective's). */
    public Optional<TableEntry> lookup(String deviceClass, KernelKey key, org.tunefarm.measure.Objective objective) {
        return Optional.ofNullable(entries.get(TableEntry.slot(deviceClass, key, objective.text())));
    }

    /** The entry in {@code e}'s slot (same class, kernel and objective). */
    public Optional<TableEntry> lookup(TableEntry e) {
        return Optional.ofNullable(entries.get(e.slot()));
    }

    /** Entries in a stable order: device class, then kernel key. */
    public List<TableEntry> entries() {
        return new ArrayList<>(entries.values());
    }

    public List<TableEntry> entries(Predicate<TableEntry> filter) {
        return entries.values().stream().filter(filter).sorted(Comparator.comparing(TableEntry::slot)).toList();
    }

    public int size() {
        return entries.size();
    }

    @Override public boolean equals(Object o) {
        return o instanceof BestKernelTable t && t.entries.equals(entries);
    }

    @Override public int hashCode() {
        return entries.hashCode();
    }

    @Override public String toString() {
        return "BestKernelTable" + entries.values();
    }
}
