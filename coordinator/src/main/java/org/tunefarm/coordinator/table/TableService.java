package org.tunefarm.coordinator.table;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import java.util.ArrayList;
import java.util.List;
import org.tunefarm.kernel.KernelSpecs;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.table.BestKernelTable;
import org.tunefarm.table.TableEntry;

/**
 * Keeps the best-kernel table: derived from the records this coordinator holds, and published
 * entry by entry to the cluster-wide map that REST reads, merged with what other coordinators wrote.
 */
public final class TableService {
    /** The cluster map: slot → entry as JSON. */
    public static final String MAP = "tunefarm.table";

    private final Vertx vertx;
    private final TableFold table;
    /** Publishes run one after another, so a later (richer) entry is never overwritten by an earlier one. */
    private Future<Void> publishing = Future.succeededFuture();

    public TableService(Vertx vertx) {
        this(vertx, new TableFold());
    }

    /** A table service that goes on from the records already folded into {@code table} (a start's one pass). */
    public TableService(Vertx vertx, TableFold table) {
        this.vertx = vertx;
        this.table = table;
    }

    /** Folds a record of a built-in family in locally; returns the entries of the slots it changed. */
    public List<TableEntry> fold(Measurement m) {
        return fold(m, KernelSpecs.get(m.key().op()).flops(m.key()));
    }

    /**
     * Folds a record in locally, with the work of one call (0: no GFLOP/s); returns the entries of
     * the slots it changed: one per objective whose figure the record has, at most.
     */
    public List<TableEntry> fold(Measurement m, double flops) {
        return table.fold(m, flops);
    }

    public BestKernelTable local() {
        return table.table();
    }

    /**
     * Publishes entries to the cluster map, merging with whatever is there. Only the latest entry
     * of each slot goes out: it already holds this coordinator's earlier evidence, and concurrent
     * read-merge-writes of one slot would otherwise race.
     */
    public Future<Void> publish(List<TableEntry> changed) {
        if (changed.isEmpty()) return Future.succeededFuture();
        java.util.Map<String, TableEntry> latest = new java.util.LinkedHashMap<>();
        for (TableEntry e : changed) latest.put(e.slot(), e);
        publishing = publishing.transform(ignored -> write(latest.values()));
        return publishing;
    }

    private Future<Void> write(java.util.Collection<TableEntry> entries) {
        return map().compose(m -> {
            List<Future<?>> fs = new ArrayList<>();
            for (TableEntry e : entries) {
                fs.add(m.get(e.slot()).compose(old -> {
                    TableEntry merged = old == null ? e : TableEntry.merge(read(old), e);
                    return m.put(e.slot(), Protocol.write(merged));
                }));
            }
            return Future.all(fs).mapEmpty();
        });
    }

    /** The cluster-wide table. */
    public Future<BestKernelTable> cluster() {
        return map().compose(AsyncMap::values).map(vs -> BestKernelTable.of(vs.stream().map(TableService::read).toList()));
    }

    private Future<AsyncMap<String, String>> map() {
        return vertx.sharedData().getAsyncMap(MAP);
    }

    private static TableEntry read(String json) {
        try {
            return Protocol.JSON.readValue(json, TableEntry.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("corrupt table entry in the cluster map", e);
        }
    }
}
