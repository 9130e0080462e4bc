package org.tunefarm.coordinator.lease;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.tunefarm.coordinator.replica.NotReplicated;
import org.tunefarm.coordinator.replica.ReplicaVerticle;
import org.tunefarm.coordinator.replica.Replication;
import org.tunefarm.coordinator.store.MeasurementReader;
import org.tunefarm.coordinator.store.RecordStore;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.SpecException;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.coordinator.sweep.SweepRun;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.coordinator.table.ClassProfiles;
import org.tunefarm.coordinator.table.TableService;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Ack;
import org.tunefarm.protocol.Heartbeat;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.ProtocolException;
import org.tunefarm.protocol.Pull;
import org.tunefarm.protocol.Register;
import org.tunefarm.protocol.Report;
import org.tunefarm.table.TableEntry;

/**
 * The farm's control loop on the event bus, deployed on the one coordinator that leads: agents
 * register, heartbeat, pull leases and report (whichever coordinator's bridge they came in by);
 * reports are made durable here and on another coordinator before they are acknowledged; the
 * table and the sweep states are published to the cluster maps that REST reads. On start it
 * catches up with the other coordinators' records, so a new leader resumes every sweep where its
 * records end. A thin adapter around {@link Dispatcher}, which holds the logic.
 */
public final class FarmVerticle extends VerticleBase implements Dispatcher.Listener {
    private static final Logger LOG = Logger.getLogger(FarmVerticle.class.getName());

    /** Local address REST uses to hand over an accepted sweep spec. */
    public static final String SUBMIT = "tunefarm.local.sweep.submit";
    /** Where REST hands over an operator's change to a sweep: {@code {id, action, priority}}. */
    public static final String CONTROL = "tunefarm.local.sweep.control";
    /**
     * Where REST hands over records measured elsewhere (an imported Kernel Tuner cache):
     * {@code {records: [...]}}; answered {@code {imported: n}}, the count new to the record log.
     */
    public static final String IMPORT = "tunefarm.local.records.import";
    /**
     * Where the coordinator says, locally, that a member joined its cluster ({@code body}: its node id).
     * That member may have led the other half of a partition and written its view of agents and
     * sweeps into the maps that merged: the leader writes its own over it.
     */
    public static final String MEMBER_JOINED = "tunefarm.local.member.joined";
    /**
     * How long after a member joins the leader writes its view again: past the moment the joined
     * member's own term has stopped writing (it stops when its merge begins; a write it sent just
     * before lands within a round trip or two) and its merge has settled.
     */
    static final long REPUBLISH_AFTER_JOIN_MS = 5_000;
    public static final String SWEEPS_MAP = "tunefarm.sweeps";
    public static final String AGENTS_MAP = "tunefarm.agents";
    /** Bad frames refused by the event-bus consumers, for health and tests. */
    public static final String REFUSED_COUNTER = "tunefarm.refused";
    /** Cluster-wide count of reported measurements whose record already existed, shown by /api/health. */
    public static final String REPEATS_COUNTER = "tunefarm.repeats";
    /** Cluster-wide counts of leases taken back, one counter per reason ({@link Dispatcher#EXPIRED_DEADLINE}, ...). */
    public static final String EXPIRIES_COUNTER_PREFIX = "tunefarm.lease.expiries.";

    private final RecordStore records;
    private final SweepLog sweepLog;
    private final Replication replication;
    private final long heartbeatMs;
    /** The state the start's one pass over the log rebuilt, or null: then the log is replayed. */
    private final FarmRestore start;
    private final BooleanSupplier heads;
    private Dispatcher dispatcher;
    private TableService table;
    private ClassProfiles classes;
    /** Classes whose profile this leader has written to the cluster map (each is written once). */
    private final java.util.Set<String> profiled = new java.util.HashSet<>();
    /** Stored here, refused with 503, not yet retried: record id → record. Bounded, oldest forgotten. */
    private final Map<String, Measurement> unacknowledged = new LinkedHashMap<>(16, 0.75f, false) {
        @Override protected boolean removeEldestEntry(Map.Entry<String, Measurement> eldest) {
            return size() > UNACKNOWLEDGED_KEPT;
        }
    };
    /** Enough for every candidate out on lease in a large farm; a retry older than that counts as a repeat. */
    private static final int UNACKNOWLEDGED_KEPT = 100_000;
    private final FarmEvents events = new FarmEvents();
    /** Agents as the cluster map shows them: a join or a leave at once, counts and leases coalesced. */
    private PublishedState<AgentInfo> agentsPublished;
    /** Sweeps as the cluster map shows them: a change of state at once, progress coalesced. */
    private PublishedState<SweepRun> sweepsPublished;

    /** A leader alone in its cluster, which it heads for as long as it runs. */
    public FarmVerticle(RecordStore records, SweepLog sweepLog, Replication replication, long heartbeatMs) {
        this(records, sweepLog, replication, heartbeatMs, null, () -> true);
    }

    /**
     * @param start what the opening pass over the log rebuilt (taken by the first term only), or null
     * @param heads whether this coordinator heads its cluster at this moment; while it does not (its
     *              member has merged into another cluster and the leader there, and this verticle is
     *              about to be undeployed) it writes nothing to the cluster's agent and sweep maps
     */
    public FarmVerticle(RecordStore records, SweepLog sweepLog, Replication replication, long heartbeatMs, FarmRestore start,
                        BooleanSupplier heads) {
        this.records = records;
        this.sweepLog = sweepLog;
        this.replication = replication;
        this.heartbeatMs = heartbeatMs;
        this.start = start;
        this.heads = heads;
    }

    @Override public Future<?> start() throws Exception {
        agentsPublished = new PublishedState<>(vertx, AGENTS_MAP, a -> a.alive() + "/" + a.registeredAt(), Protocol::write, heads);
        sweepsPublished = new PublishedState<>(vertx, SWEEPS_MAP, s -> s.state(System.currentTimeMillis()), this::publishedStatus, heads);
        dispatcher = new Dispatcher(System::currentTimeMillis, heartbeatMs, this, StrategyWork.shared());
        table = new TableService(vertx);
        classes = new ClassProfiles(vertx);
        // Consumers come last: until this leader knows every record, agents get "no handler" and retry.
        return replication.catchUp().compose(x -> vertx.executeBlocking(this::restore)).compose(this::publishRestored)
                .compose(x -> adoptAgents()).onSuccess(x -> listen());
    }

    @Override public Future<?> stop() {
        vertx.sharedData().getLocalMap(ReplicaVerticle.COPIED).remove(ReplicaVerticle.LISTENING);
        return Future.succeededFuture();
    }

    private void listen() {
        var bus = vertx.eventBus();
        // The bridge hands an agent's request over as its JSON text and gets the answer as text; a
        // request as a JSON object (an older bridge, a test on the bus) is answered as one.
        bus.<Object>consumer(Protocol.REGISTER, m -> answer(m, () -> dispatcher.register(read(m, Register.class))));
        bus.<Object>consumer(Protocol.HEARTBEAT, m -> answer(m, () -> {
            dispatcher.heartbeat(read(m, Heartbeat.class));
            return Ack.ok(0);
        }));
        bus.<Object>consumer(Protocol.PULL, m -> answer(m, () -> dispatcher.pull(read(m, Pull.class).agentId())));
        bus.<Object>consumer(Protocol.REPORT, this::onReport);
        bus.<JsonObject>consumer(SUBMIT, this::onSubmit);
        bus.<JsonObject>consumer(CONTROL, this::onControl);
        bus.<JsonObject>consumer(IMPORT, this::onImport);
        bus.<JsonObject>localConsumer(ReplicaVerticle.COPIED, this::onCopied);
        bus.<String>localConsumer(MEMBER_JOINED, m -> vertx.setTimer(REPUBLISH_AFTER_JOIN_MS, t -> republish()));
        vertx.sharedData().getLocalMap(ReplicaVerticle.COPIED).put(ReplicaVerticle.LISTENING, true);
        vertx.setPeriodic(Math.max(100, heartbeatMs / 2), t -> dispatcher.tick());
        LOG.info("dispatching: this coordinator leads the farm");
    }

    /** Agents the previous leader knew keep their identity; each gets a fresh heartbeat window. */
    private Future<?> adoptAgents() {
        return vertx.sharedData().<String, String>getAsyncMap(AGENTS_MAP).compose(AsyncMap::values).map(vs -> {
            for (String v : vs) {
                try {
                    AgentInfo a = Protocol.JSON.readValue(v, AgentInfo.class);
                    if (a.alive()) dispatcher.adopt(a);
                } catch (java.io.IOException e) {
                    LOG.warning("skipping an unreadable agent entry: " + e.getMessage());
                }
            }
            return null;
        });
    }

    /** What a restore found: the class profiles the sweep log keeps. */
    private record Restored(List<DeviceProfile> profiles) {}

    /**
     * Reads the sweep log and the record log back: sweeps resume where their records end. The
     * first term after a start takes what the start's pass over the log rebuilt and reads only the
     * records appended since; otherwise the whole log is replayed.
     */
    private Restored restore() throws Exception {
        long began = System.nanoTime();
        List<SweepLog.Entry> entries = sweepLog.read();
        var taken = start == null ? java.util.Optional.<FarmRestore.Taken>empty() : start.take(entries, records, this);
        if (taken.isPresent()) {
            dispatcher = taken.get().dispatcher();
            table = new TableService(vertx, taken.get().table());
            dispatcher.retireAsKept(entries); // sweeps let go since the start's pass
        } else {
            for (SweepLog.Entry e : entries) if (e.spec() != null) dispatcher.add(new SweepRun(e.id(), e.spec(), e.createdAt()));
            dispatcher.retireAsKept(entries);
            records.replay(m -> {
                dispatcher.replay(m);
                table.fold(m, flops(m));
            });
        }
        // Every change again on a taken state too: the pass applied none, and each sets a state outright.
        for (SweepControl c : sweepLog.controls()) dispatcher.apply(c);
        // After the records, in the order the classes began: a class's search is seeded with the
        // evidence of the classes before it, as when it first began.
        entries.stream().filter(e -> e.classStart() != null).sorted(java.util.Comparator.comparingLong(SweepLog.Entry::createdAt))
                .forEach(e -> dispatcher.resume(e.id(), e.classStart().deviceClass(), e.classStart().cores(), e.classStart().vectorBits(),
                        e.classStart().knownProfile().map(DeviceProfile::vectorRegisters).orElse(DeviceProfile.REGISTERS_UNKNOWN), e.createdAt()));
        boolean onePass = taken.isPresent();
        LOG.info(() -> String.format("restored %d sweeps and %d records in %.1f s (%s)", dispatcher.sweeps().size(), records.count(),
                (System.nanoTime() - began) / 1e9, onePass ? "from the start's pass over the log" : "replaying the log"));
        List<DeviceProfile> profiles = entries.stream().filter(e -> e.classStart() != null)
                .flatMap(e -> e.classStart().knownProfile().stream()).toList();
        return new Restored(profiles);
    }

    /** Writes every agent and sweep this leader knows to the cluster maps, as if each had just changed. */
    private void republish() {
        for (AgentInfo a : dispatcher.agents()) agentsPublished.rewrite(a.agentId(), a);
        for (SweepRun s : dispatcher.sweeps()) sweepsPublished.rewrite(s.id(), s);
        LOG.info(() -> "wrote this leader's " + dispatcher.agents().size() + " agents and " + dispatcher.sweeps().size()
                + " sweeps to the cluster maps again, after a member joined");
    }

    private Future<?> publishRestored(Restored restored) {
        for (SweepRun s : dispatcher.sweeps()) sweepChanged(s);
        for (DeviceProfile p : restored.profiles()) profile(p.deviceClass(), p);
        return table.publish(table.local().entries());
    }

    /**
     * Writes a class's profile to the cluster map, once per class while this leader leads. The
     * class is the caller's (an agent's entry keeps it): working it out again hashes the profile,
     * and every heartbeat of every agent comes here.
     */
    private void profile(String deviceClass, DeviceProfile p) {
        if (!profiled.add(deviceClass)) return;
        classes.add(p).onFailure(t -> {
            profiled.remove(deviceClass); // the next registration of the class tries again
            LOG.log(Level.WARNING, "publishing the profile of class " + deviceClass + " failed", t);
        });
    }

    private void onReport(Message<Object> m) {
        Report report;
        List<Measurement> checked;
        try {
            report = read(m, Report.class);
            checked = dispatcher.check(report);
        } catch (ProtocolException e) {
            refuse(m, e);
            return;
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "failed on a report", e);
            m.fail(500, "internal error: " + e);
            return;
        }
        if (checked.isEmpty()) { // a closing "done": nothing to make durable
            dispatcher.persisted(report, List.of());
            reply(m, Ack.ok(0));
            return;
        }
        replication.append(checked).onComplete(ar -> {
            if (ar.failed()) {
                if (ar.cause() instanceof NotReplicated n) storedUnacknowledged(n.storedHere());
                LOG.log(Level.SEVERE, "report not acknowledged: " + ar.cause().getMessage());
                m.fail(503, "not durable yet, send again: " + ar.cause().getMessage());
                return;
            }
            // The retry of a report refused with 503 finds its records stored: they are still its own.
            List<Measurement> fresh = new ArrayList<>(ar.result());
            for (Measurement x : checked) {
                Measurement stored = unacknowledged.remove(x.recordId());
                if (stored != null) fresh.add(stored);
            }
            // A measurement of a candidate already recorded is work the farm should not have lent out again.
            if (fresh.size() < checked.size()) {
                vertx.sharedData().getCounter(REPEATS_COUNTER).compose(c -> c.addAndGet(checked.size() - fresh.size()));
            }
            String stop = dispatcher.persisted(report, fresh);
            List<TableEntry> changed = fold(ar.result());
            // The records are durable, so the ack does not depend on the publish; waiting for it
            // gives the agent's operator read-your-writes on the table.
            table.publish(changed).onComplete(p -> {
                if (p.failed()) LOG.log(Level.WARNING, "table publish failed", p.cause());
                reply(m, stop == null ? Ack.ok(fresh.size()) : Ack.stop(fresh.size(), stop));
            });
        });
    }

    /**
     * Records durable in this log whose report got a 503 (no other coordinator confirmed a copy).
     * They are in the log, so the table and the searches learn of them now, as a restart would;
     * the lease stays open for the agent's retry, which is acknowledged as the report's own.
     */
    private void storedUnacknowledged(List<Measurement> stored) {
        for (Measurement x : stored) {
            unacknowledged.put(x.recordId(), x);
            dispatcher.replay(x);
        }
        table.publish(fold(stored));
        dispatcher.sweeps().forEach(this::sweepChanged);
    }

    /** Folds new records into the local table; returns the slots that changed. */
    private List<TableEntry> fold(List<Measurement> stored) {
        List<TableEntry> changed = new ArrayList<>();
        for (Measurement x : stored) {
            changed.addAll(table.fold(x, flops(x)));
        }
        return changed;
    }

    /**
     * Records measured elsewhere, taken as an agent's report is: checked, made durable here and on
     * a peer before the answer, folded into the table. Idempotent by record id, so importing the
     * same records again stores nothing. A 503 means they are durable here only: they enter the
     * table now, and importing again makes the copy.
     */
    private void onImport(Message<JsonObject> m) {
        List<Measurement> ms = new ArrayList<>();
        try {
            io.vertx.core.json.JsonArray records = m.body().getJsonArray("records");
            for (int i = 0; i < records.size(); i++) {
                Measurement x = Protocol.JSON.readValue(records.getJsonObject(i).encode(), Measurement.class);
                MeasurementCheck.check(x, "records[" + i + "]");
                ms.add(x);
            }
        } catch (java.io.IOException | ProtocolException | ClassCastException | NullPointerException e) {
            m.fail(400, "records: " + e.getMessage());
            return;
        }
        replication.append(ms).onComplete(ar -> {
            if (ar.failed()) {
                if (ar.cause() instanceof NotReplicated n) table.publish(fold(n.storedHere()));
                m.fail(503, "not durable on a second coordinator yet, import again: " + ar.cause().getMessage());
                return;
            }
            List<Measurement> fresh = ar.result();
            for (Measurement x : fresh) dispatcher.replay(x);
            table.publish(fold(fresh)).onComplete(p -> {
                if (p.failed()) LOG.log(Level.WARNING, "table publish failed", p.cause());
                m.reply(new JsonObject().put("imported", fresh.size()));
            });
        });
    }

    /** Records that reached the log by copy, after this leader restored: searches and table learn of them. */
    private void onCopied(Message<JsonObject> m) {
        List<TableEntry> changed = new ArrayList<>();
        for (Object o : m.body().getJsonArray("lines")) {
            try {
                Measurement x = MeasurementReader.read((String) o);
                dispatcher.replay(x);
                changed.addAll(table.fold(x, flops(x)));
            } catch (java.io.IOException e) {
                LOG.warning("unreadable copied record: " + e.getMessage());
            }
        }
        table.publish(changed);
        dispatcher.sweeps().forEach(this::sweepChanged);
    }

    private void onSubmit(Message<JsonObject> m) {
        // Reading a spec checks its spaces (the first one cost seconds on a busy 2-core board): off the event loop.
        String body = m.body().encode();
        vertx.executeBlocking(() -> Protocol.JSON.readValue(body, SweepSpec.class), false).onComplete(read -> {
            if (read.failed()) m.fail(400, "spec: " + read.cause().getMessage());
            else submit(m, read.result());
        });
    }

    private void submit(Message<JsonObject> m, SweepSpec spec) {
        SweepLog.Entry entry = new SweepLog.Entry(UUID.randomUUID().toString().substring(0, 8), System.currentTimeMillis(), spec);
        replication.append(entry).onComplete(ar -> {
            if (ar.failed()) {
                m.fail(500, "sweep log append failed: " + ar.cause().getMessage());
                return;
            }
            SweepRun run = new SweepRun(entry.id(), spec, entry.createdAt());
            dispatcher.add(run);
            m.reply(new JsonObject().put("id", entry.id()));
        });
    }

    /**
     * An operator's change to a sweep: checked against its state, kept in the sweep log here and on
     * a peer, then applied, so a restart or a new leader sees the same sweep. Replies its status.
     */
    private void onControl(Message<JsonObject> m) {
        SweepControl c;
        boolean changes;
        try {
            SweepControl.Action action = SweepControl.Action.valueOf(m.body().getString("action", ""));
            c = new SweepControl(m.body().getString("id"), System.currentTimeMillis(), action, m.body().getInteger("priority", 0));
            changes = dispatcher.allows(c);
        } catch (ProtocolException e) {
            m.fail(404, e.getMessage());
            return;
        } catch (SweepControl.Refused e) {
            m.fail(409, e.getMessage());
            return;
        } catch (IllegalArgumentException | ClassCastException e) {
            m.fail(400, "action: " + e.getMessage());
            return;
        }
        Future<Void> kept = changes ? replication.append(c) : Future.succeededFuture();
        kept.onComplete(ar -> {
            if (ar.failed()) {
                m.fail(500, "sweep log append failed: " + ar.cause().getMessage());
                return;
            }
            if (changes) {
                dispatcher.apply(c); // a change of state is logged as the sweep's event; a priority is not one
                if (c.action() == SweepControl.Action.PRIORITY) LOG.info(() -> "sweep " + c.sweepId() + ": priority " + c.priority());
            }
            m.reply(new JsonObject(Protocol.write(dispatcher.sweep(c.sweepId()).status(System.currentTimeMillis()))));
        });
    }

    /** Work of one call of a record's kernel: from its sweep's family, which knows command kernels too. */
    private double flops(Measurement m) {
        return FarmRestore.flops(dispatcher, m);
    }

    @Override public void agentChanged(AgentInfo agent) {
        if (agent.profile() != null) profile(agent.deviceClass(), agent.profile());
        events.agent(agent);
        agentsPublished.changed(agent.agentId(), agent);
    }

    @Override public void agentForgotten(String agentId) {
        events.forget(agentId);
        agentsPublished.forget(agentId);
    }

    @Override public void classStarted(SweepRun sweep, String deviceClass, DeviceProfile profile, int cores, int vectorBits, long at) {
        replication.append(SweepLog.Entry.classStarted(sweep.id(), deviceClass, profile, cores, vectorBits, at)).onFailure(t -> LOG.warning(() -> "sweep " + sweep.id()
                + ": the start of class " + deviceClass + " is not kept on two disks (a leader without it begins the class anew): " + t.getMessage()));
    }

    @Override public void sweepRetired(SweepRun sweep, long at) {
        replication.append(SweepLog.Entry.retired(sweep.id(), at, sweep.retiredSearches())).onFailure(t -> LOG.warning(() -> "sweep " + sweep.id()
                + ": that it let its searches go is not kept on two disks (a restart rebuilds them from the records): " + t.getMessage()));
    }

    @Override public void leaseExpired(String reason) {
        vertx.sharedData().getCounter(EXPIRIES_COUNTER_PREFIX + reason).compose(c -> c.incrementAndGet())
                .onFailure(t -> LOG.log(Level.FINE, "counting a lease expiry failed", t));
    }

    @Override public void sweepChanged(SweepRun sweep) {
        sweepsPublished.changed(sweep.id(), sweep);
    }

    /** A sweep's status as REST shows it, computed when it is published; a change of state is logged then. */
    private String publishedStatus(SweepRun sweep) {
        SweepRun.Status status = sweep.status(System.currentTimeMillis());
        events.sweep(status);
        return Protocol.write(status);
    }

    private interface Answer {
        Object get();
    }

    private void answer(Message<Object> m, Answer a) {
        try {
            reply(m, a.get());
        } catch (ProtocolException e) {
            refuse(m, e);
        } catch (RuntimeException e) {
            // A bug, not the agent's fault; still answer, or the agent waits out its timeout.
            LOG.log(Level.SEVERE, "failed on a message to " + m.address(), e);
            m.fail(500, "internal error: " + e);
        }
    }

    private void refuse(Message<?> m, ProtocolException e) {
        LOG.warning(() -> "refused a message to " + m.address() + ": " + e.getMessage());
        vertx.sharedData().getLocalCounter(REFUSED_COUNTER).compose(c -> c.incrementAndGet());
        m.fail(400, e.getMessage());
    }

    private static <T> T read(Message<?> m, Class<T> type) {
        Object body = m.body();
        if (body instanceof String text) return Protocol.read(text, type);
        if (!(body instanceof JsonObject j)) throw new ProtocolException("body must be a JSON object");
        return Protocol.read(j.encode(), type);
    }

    /** Answers in the form the request came in: JSON text to text, a JSON object to an object. */
    private static void reply(Message<Object> m, Object answer) {
        m.reply(m.body() instanceof String ? Protocol.write(answer) : json(answer));
    }

    private static JsonObject json(Object o) {
        return new JsonObject(Protocol.write(o));
    }
}
