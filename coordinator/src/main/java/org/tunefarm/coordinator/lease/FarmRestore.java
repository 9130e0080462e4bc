package org.tunefarm.coordinator.lease;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.tunefarm.coordinator.store.RecordPage;
import org.tunefarm.coordinator.store.RecordStore;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.SweepRun;
import org.tunefarm.coordinator.table.TableFold;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.measure.Measurement;

/**
 * A leader's state rebuilt from the record log while the log is opened at start, in the same pass
 * that reads its ids and the dashboard's tally, so a coordinator that leads right after starting
 * does not read the log again: the sweeps the sweep log held at start, each fed its records, and
 * the table folded from them. The first leader term of this process takes it over once
 * ({@link #take}), adds the records appended since the log was opened, and begins the searches;
 * a later term, or a sweep log that has gained a sweep meanwhile (whose records the pass could not
 * give it), replays the log as before. Until it is taken it holds, per record, the outcome its
 * search will learn from (some 70 bytes), on a coordinator that does not lead as well: the price of
 * leading without a second pass.
 */
public final class FarmRestore implements Consumer<Measurement> {
    /** Records read per page when the records appended after the opening pass are added. */
    private static final int TAIL_PAGE = 2_000;

    private final Relay relay = new Relay();
    private Dispatcher dispatcher;
    private TableFold table = new TableFold();
    private final Set<String> sweeps = new HashSet<>();
    private long openedAt = -1;

    /** The dispatcher's sweeps, as the sweep log holds them now; records are fed through {@link #accept}. */
    public FarmRestore(SweepLog sweepLog, long heartbeatMs) throws IOException {
        dispatcher = new Dispatcher(System::currentTimeMillis, heartbeatMs, relay, StrategyWork.shared());
        List<SweepLog.Entry> entries = sweepLog.read();
        for (SweepLog.Entry e : entries) {
            if (e.spec() != null && sweeps.add(e.id())) dispatcher.add(new SweepRun(e.id(), e.spec(), e.createdAt()));
        }
        // Sweeps a leader let go stay let go: their records, most of a season's, then rebuild no search.
        dispatcher.retireAsKept(entries);
    }

    /** One record of the opening pass, in log order. */
    @Override public synchronized void accept(Measurement m) {
        if (dispatcher == null) return;
        dispatcher.replay(m);
        table.fold(m, flops(dispatcher, m));
    }

    /** The opening pass is over: it covered the log up to this byte. */
    public synchronized void opened(long offset) {
        openedAt = offset;
    }

    /** What a leader takes over: the dispatcher (its events now go to the leader) and the table. */
    record Taken(Dispatcher dispatcher, TableFold table) {}

    /**
     * The state, once, brought up to the log's end; empty when it cannot stand for a replay: taken
     * already, the pass not over, or a sweep in {@code entries} the pass did not know.
     */
    synchronized java.util.Optional<Taken> take(List<SweepLog.Entry> entries, RecordStore records, Dispatcher.Listener leader) throws IOException {
        Dispatcher d = dispatcher;
        TableFold t = table;
        dispatcher = null; // whatever happens, the next term replays
        table = null;
        if (d == null || openedAt < 0) return java.util.Optional.empty();
        for (SweepLog.Entry e : entries) if (e.spec() != null && !sweeps.contains(e.id())) return java.util.Optional.empty();
        for (long from = openedAt; ; ) {
            RecordPage page = records.read(from, TAIL_PAGE);
            for (Measurement m : page.records()) {
                d.replay(m);
                t.fold(m, flops(d, m));
            }
            if (page.next() >= page.end() || page.next() == from) break;
            from = page.next();
        }
        relay.to = leader;
        return java.util.Optional.of(new Taken(d, t));
    }

    /** Work of one call of a record's kernel: from its sweep's family, which knows command kernels too. */
    static double flops(Dispatcher dispatcher, Measurement m) {
        SweepRun s = dispatcher.sweep(m.sweepId());
        if (s != null) return s.family().flops(m.key());
        return org.tunefarm.kernel.KernelCatalog.builtIn().find(m.key().op()).map(k -> k.flops(m.key())).orElse(0.0);
    }

    /** The dispatcher's listener: silent while the state is rebuilt, the leader's once it is taken. */
    private static final class Relay implements Dispatcher.Listener {
        volatile Dispatcher.Listener to = new Dispatcher.Listener() {};

        @Override public void agentChanged(AgentInfo agent) {
            to.agentChanged(agent);
        }

        @Override public void sweepChanged(SweepRun sweep) {
            to.sweepChanged(sweep);
        }

        @Override public void classStarted(SweepRun sweep, String deviceClass, DeviceProfile profile, int cores, int vectorBits, long at) {
            to.classStarted(sweep, deviceClass, profile, cores, vectorBits, at);
        }

        @Override public void leaseExpired(String reason) {
            to.leaseExpired(reason);
        }

        @Override public void agentForgotten(String agentId) {
            to.agentForgotten(agentId);
        }

        @Override public void sweepRetired(SweepRun sweep, long at) {
            to.sweepRetired(sweep, at);
        }
    }
}
