package org.tunefarm.coordinator.lease;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.tunefarm.coordinator.sweep.Search;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.SweepRun;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Objective;
import org.tunefarm.protocol.Heartbeat;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.ProtocolException;
import org.tunefarm.protocol.Register;
import org.tunefarm.protocol.Registered;
import org.tunefarm.protocol.Report;
import org.tunefarm.protocol.Work;

/**
 * Hands out work and takes it back: agents pull batches for their device class, results are
 * matched to the lease they were lent under, and a lease whose deadline passes or whose agent
 * stops sending heartbeats returns its unreported candidates to the queue. Pure state, no I/O;
 * one thread (the coordinator's event loop) drives it.
 */
public final class Dispatcher {

    /** Told when something a user can see changed, so it can be published. */
    public interface Listener {
        default void agentChanged(AgentInfo agent) {}

        default void sweepChanged(SweepRun sweep) {}

        /** A device class's searches of a sweep began: worth keeping, so a restart begins them alike. */
        default void classStarted(SweepRun sweep, String deviceClass, DeviceProfile profile, int cores, int vectorBits, long at) {}

        /** A lease was taken back because its deadline passed or its agent went silent. */
        default void leaseExpired(String reason) {}

        /** An agent dead for {@link #FORGET_DEAD_MS} was forgotten: it is no longer listed. */
        default void agentForgotten(String agentId) {}

        /** An over sweep let its searches go ({@link SweepRun#retire}): worth keeping, so a restart does not rebuild them. */
        default void sweepRetired(SweepRun sweep, long at) {}
    }

    /** Why a lease was taken back: {@link Listener#leaseExpired}. */
    public static final String EXPIRED_DEADLINE = "deadline";
    public static final String EXPIRED_AGENT_LOST = "agent-lost";

    /** Heartbeats an agent may miss before it is presumed dead. */
    static final int MISSED_HEARTBEATS = 3;
    /** How long an idle agent waits before asking again when there is no work. */
    static final long IDLE_RETRY_MS = 500;
    /**
     * A heartbeat republishes its agent (last seen, sensors) at most this often: often enough for
     * the dashboard's "last heartbeat" and temperature plots, rare enough to spare the cluster map.
     */
    static final long PUBLISH_SEEN_MS = 2_000;
    /**
     * A dead agent is listed this long after its last heartbeat, then forgotten, so a fleet whose
     * boards come and go (phones, reinstalled boards with new ids) does not grow the leader's
     * state and the cluster's agent map forever. An agent that returns registers afresh.
     */
    public static final long FORGET_DEAD_MS = 24 * 3_600_000L;
    /** A sweep over (done or cancelled) this long lets its searches go, keeping its final status ({@link SweepRun#retire}). */
    public static final long RETIRE_AFTER_MS = 10 * 60_000L;
    /** Expired lease ids kept to explain a late report ("has expired"), newest kept; older ones read as unknown. */
    static final int EXPIRED_KEPT = 4096;
    /**
     * Reports per second the farm asks its agents to keep to, all together: each lease's
     * {@link Lease#reportEveryMs} is the open leases times a thousand over this. Most of a report's
     * cost on the leader (its parse, its event-bus hops, its place in a group commit, its copy to a
     * peer, its answer) is per report, not per record; a few agents with short candidates report
     * each result at once, 256 of them at 50 ms each every quarter second, four results a report.
     */
    static final long REPORTS_PER_SECOND = 1_000;

    private final LongSupplier clock;
    private final long heartbeatMs;
    private final Listener listener;
    private final Map<String, AgentInfo> agents = new LinkedHashMap<>();
    private final Map<String, SweepRun> sweeps = new LinkedHashMap<>();
    private final Map<String, Held> leases = new HashMap<>();
    private final Set<String> expired = java.util.Collections.newSetFromMap(new LinkedHashMap<>() {
        @Override protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > EXPIRED_KEPT;
        }
    });
    /**
     * Leases whose every candidate was reported, by lease id, with the agent that held them: the
     * agent's closing {@code done} report for one arrives after the last result has already ended
     * it, and is an honest agent finishing, not a stale or foreign lease. Bounded: a {@code done}
     * comes within one round trip of the last result.
     */
    private final Map<String, String> completed = new LinkedHashMap<>() {
        @Override protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > COMPLETED_KEPT;
        }
    };
    static final int COMPLETED_KEPT = 4096;
    /** When each sweep not yet retired was first seen over, by id. */
    private final Map<String, Long> overSince = new HashMap<>();
    /** When each agent was last published because of a heartbeat. */
    private final Map<String, Long> seenPublished = new HashMap<>();
    /** Leases lent so far: sweeps of equal priority take turns by when they last got one. */
    private long turns;

    /** Sizes each lease so it lasts about its sweep's leaseSeconds on the agent that takes it. */
    private final LeaseSizer sizer = new LeaseSizer();

    /** A lease, when it was lent, and the candidates not yet reported under it. */
    private record Held(Lease lease, long lentAt, Map<Long, Lease.Candidate> open) {}

    /** Where the sweeps' strategies do heavy work; null: in the proposing call (tests, deterministic). */
    private final java.util.concurrent.Executor strategyWork;

    public Dispatcher(LongSupplier clock, long heartbeatMs, Listener listener) {
        this(clock, heartbeatMs, listener, null);
    }

    /** @param strategyWork where the strategies of its sweeps refit their models, off the thread that drives this dispatcher */
    public Dispatcher(LongSupplier clock, long heartbeatMs, Listener listener, java.util.concurrent.Executor strategyWork) {
        this.clock = clock;
        this.heartbeatMs = heartbeatMs;
        this.listener = listener;
        this.strategyWork = strategyWork;
    }

    public void add(SweepRun sweep) {
        sweep.strategyWorkIn(strategyWork);
        sweeps.put(sweep.id(), sweep);
        listener.sweepChanged(sweep);
    }

    public SweepRun sweep(String id) {
        return sweeps.get(id);
    }

    public Collection<SweepRun> sweeps() {
        return sweeps.values();
    }

    public Collection<AgentInfo> agents() {
        return agents.values();
    }

    /**
     * Sweeps the sweep log says a leader let go ({@link SweepLog.Retired}) are let go here too, as
     * they were: their records then teach no search, so call this before the records are replayed.
     * A sweep let go already, or not known here, is left as it is.
     */
    public void retireAsKept(List<SweepLog.Entry> entries) {
        for (SweepLog.Entry e : entries) {
            if (e.retired() == null) continue;
            SweepRun s = sweeps.get(e.id());
            if (s == null || s.retired()) continue;
            s.restoreRetired(e.retired().searches());
            overSince.remove(e.id());
        }
    }

    /** A record made durable before a restart. */
    public void replay(Measurement m) {
        SweepRun s = sweeps.get(m.sweepId());
        if (s != null) s.recorded(m);
    }

    /**
     * A device class's searches of a sweep began before a restart or takeover: they begin again
     * with the same space and time window, so the sweep's state is right before its agents return.
     */
    public void resume(String sweepId, String deviceClass, int cores, int vectorBits, int registers, long at) {
        SweepRun s = sweeps.get(sweepId);
        if (s == null || s.hasClass(deviceClass)) return;
        for (Search x : s.searches(deviceClass, Math.max(1, cores), vectorBits, registers, at)) x.settle(clock.getAsLong());
        listener.sweepChanged(s);
    }

    /**
     * An agent registered with a previous leader: known again, without a lease (the old leader's
     * leases died with it), with a fresh heartbeat window to prove it is still alive.
     */
    public void adopt(AgentInfo a) {
        if (agents.containsKey(a.agentId())) return;
        agents.put(a.agentId(), a.withLease(null).seen(clock.getAsLong(), null, null));
    }

    public Registered register(Register r) {
        if (r.agentId() == null || !r.agentId().matches("[A-Za-z0-9._:-]{1,100}")) throw new ProtocolException("agentId: must be 1-100 characters of [A-Za-z0-9._:-]");
        if (r.profile() == null) throw new ProtocolException("profile: is required");
        if (r.families() == null || r.families().isEmpty()) throw new ProtocolException("families: at least one kernel family is required");
        List<String> families = CommandKernelCheck.check(r, agents.values());
        long now = clock.getAsLong();
        AgentInfo old = agents.get(r.agentId());
        if (old != null && old.leaseId() != null) release(old.leaseId()); // it restarted: what it held is lost
        String deviceClass = r.profile().deviceClass();
        AgentInfo a = new AgentInfo(r.agentId(), deviceClass, r.profile(), List.copyOf(families), now, now, null, null, true,
                old != null ? old.measured() : 0, r.commandKernels(), r.version());
        agents.put(a.agentId(), a);
        listener.agentChanged(a);
        return new Registered(a.agentId(), deviceClass, heartbeatMs);
    }

    public void heartbeat(Heartbeat h) {
        AgentInfo a = known(h.agentId());
        long now = clock.getAsLong();
        AgentInfo b = a.seen(now, a.leaseId(), h.sensors());
        agents.put(b.agentId(), b);
        if (!a.alive() || now - seenPublished.getOrDefault(b.agentId(), 0L) >= PUBLISH_SEEN_MS) {
            seenPublished.put(b.agentId(), now);
            listener.agentChanged(b);
        }
    }

    public Work pull(String agentId) {
        AgentInfo a = known(agentId);
        long now = clock.getAsLong();
        if (a.leaseId() != null) release(a.leaseId()); // asking again means it gave up its lease
        a = agents.get(agentId).seen(now, null, null);
        agents.put(agentId, a);
        for (SweepRun s : leaseOrder(now)) {
            int vectorBits = a.profile().vectorBits();
            if (!s.targets(a.deviceClass(), a.families(), a::commandKernel, vectorBits)) continue;
            boolean begins = !s.hasClass(a.deviceClass());
            int cores = Math.max(1, a.profile().logicalCores());
            List<Search> searches = s.searches(a.deviceClass(), cores, vectorBits, a.profile().vectorRegisters(), now);
            if (begins) listener.classStarted(s, a.deviceClass(), a.profile(), cores, vectorBits, now);
            for (Search search : searches) {
                // Sized only where there may be something to lend: a sweep of many shapes has many spent searches.
                List<Lease.Candidate> cs = search.mayLend(now) ? search.take(sizer.size(agentId, s.id(), search.key().id(), s.spec()), now) : List.of();
                int round = 0;
                if (cs.isEmpty()) {
                    Search.Finalists f = search.takeFinalists(agentId, now);
                    if (f == null) continue;
                    cs = f.candidates();
                    round = f.round();
                }
                // Every lease names the sweep's objective; only a sustained sweep's finalists run sustained.
                double sustained = round > 0 && s.spec().objective() == Objective.SUSTAINED ? s.spec().sustainedSeconds() : 0;
                long deadline = LeaseDeadline.of(now, cs.size(), s.spec().measure(), s.spec().fidelity(), sustained);
                long reportEveryMs = Math.min(Lease.MAX_REPORT_EVERY_MS, (leases.size() + 1) * 1000L / REPORTS_PER_SECOND);
                Lease lease = new Lease(UUID.randomUUID().toString(), s.id(), agentId, search.key(), cs, s.spec().measure(), deadline,
                        round, s.spec().fidelity(), s.spec().objective(), sustained, reportEveryMs);
                Map<Long, Lease.Candidate> open = new LinkedHashMap<>();
                for (Lease.Candidate c : cs) open.put(c.index(), c);
                leases.put(lease.leaseId(), new Held(lease, now, open));
                s.leased(++turns);
                agents.put(agentId, a.withLease(lease.leaseId()));
                listener.sweepChanged(s);
                return Work.of(lease);
            }
            if (s.done(now)) listener.sweepChanged(s);
        }
        return Work.none(IDLE_RETRY_MS);
    }

    /**
     * The sweeps that may lend work now, in the order they are offered: higher priority first;
     * among equal priorities, the one that waited longest since its last lease, so they share.
     */
    private List<SweepRun> leaseOrder(long now) {
        return sweeps.values().stream().filter(s -> s.leasable(now))
                .sorted(java.util.Comparator.comparingInt(SweepRun::priority).reversed().thenComparingLong(SweepRun::lastLeased))
                .toList();
    }

    /**
     * Checks an operator's change against the sweep's state, without applying it.
     *
     * @return false when it would change nothing
     * @throws ProtocolException when there is no such sweep
     * @throws SweepControl.Refused when the sweep's state forbids it
     */
    public boolean allows(SweepControl c) {
        SweepRun s = sweeps.get(c.sweepId());
        if (s == null) throw new ProtocolException("id: no sweep with id '" + c.sweepId() + "'");
        return s.allows(c.action(), c.priority(), clock.getAsLong());
    }

    /**
     * Applies a change that is kept in the sweep log. Leases already out are left to their
     * agents: each is stopped at its next report (see {@link #persisted}), so nothing measured is lost.
     */
    public void apply(SweepControl c) {
        SweepRun s = sweeps.get(c.sweepId());
        if (s == null) return;
        s.apply(c);
        listener.sweepChanged(s);
    }

    /**
     * Checks a report against the lease it claims, before anything is stored.
     *
     * @return the measurements to make durable
     * @throws ProtocolException naming what does not match
     */
    public List<Measurement> check(Report r) {
        AgentInfo a = known(r.agentId());
        if (r.leaseId() == null) throw new ProtocolException("leaseId: is required");
        Held held = leases.get(r.leaseId());
        if (held == null && r.done() && (r.measurements() == null || r.measurements().isEmpty())
                && a.agentId().equals(completed.get(r.leaseId()))) {
            return List.of(); // the closing "done" of a lease its results already completed
        }
        if (held == null) {
            throw new ProtocolException("leaseId: " + (expired.contains(r.leaseId()) ? "lease " + r.leaseId() + " has expired and its batch was requeued" : "unknown lease " + r.leaseId()));
        }
        Lease l = held.lease();
        if (!l.agentId().equals(a.agentId())) throw new ProtocolException("leaseId: lease " + r.leaseId() + " is not held by agent " + a.agentId());
        if (r.measurements() == null) throw new ProtocolException("measurements: is required");
        SweepRun sweep = sweeps.get(l.sweepId());
        Search search = sweep == null ? null : sweep.search(a.deviceClass(), l.key());
        for (int i = 0; i < r.measurements().size(); i++) {
            Measurement m = r.measurements().get(i);
            String f = "measurements[" + i + "]";
            if (m == null) throw new ProtocolException(f + ": is null");
            MeasurementCheck.check(m, f);
            if (!l.sweepId().equals(m.sweepId())) throw new ProtocolException(f + ".sweepId: not the lease's sweep");
            if (!l.key().equals(m.key())) throw new ProtocolException(f + ".key: not the lease's kernel");
            if (!a.agentId().equals(m.agentId())) throw new ProtocolException(f + ".agentId: not the reporting agent");
            if (!a.deviceClass().equals(m.deviceClass())) throw new ProtocolException(f + ".deviceClass: not the agent's device class");
            Lease.Candidate c = held.lease().candidates().stream().filter(x -> x.index() == m.index()).findFirst().orElse(null);
            if (c == null) throw new ProtocolException(f + ".index: candidate " + m.index() + " is not in lease " + l.leaseId());
            if (m.round() != l.round()) throw new ProtocolException(f + ".round: lease " + l.leaseId() + " is for round " + l.round());
            if (!c.params().equals(m.params())) throw new ProtocolException(f + ".params: do not match candidate " + m.index() + " of the lease");
            if (search != null && !search.accepts(m.index(), m.params())) throw new ProtocolException(f + ".index: outside the sweep's space");
        }
        return r.measurements();
    }

    /**
     * The report's new measurements are durable: advance the searches and the lease.
     *
     * @return why the agent should stop measuring the rest of its lease (its sweep was paused or
     *         cancelled; the lease is ended and its unmeasured candidates go back to the queue), or null
     */
    public String persisted(Report r, List<Measurement> fresh) {
        Held held = leases.get(r.leaseId());
        // Durable is durable, even if the lease ran out while the log was syncing: find the sweep
        // from the (checked) measurements, not from the lease, or their candidates are lent again.
        // Apply every measurement of the report, not only the ones new to the log: a record can
        // reach the log by replication before this leader's searches learn of it.
        List<Measurement> all = r.measurements();
        SweepRun sweep = held != null ? sweeps.get(held.lease().sweepId()) : all.isEmpty() ? null : sweeps.get(all.get(0).sweepId());
        for (Measurement m : all) if (sweep != null) sweep.recorded(m);
        String stop = null;
        if (held != null) {
            for (Measurement m : r.measurements()) held.open().remove(m.index());
            if (sweep != null && (sweep.paused() || sweep.cancelled())) stop = "sweep " + sweep.id() + " is " + (sweep.cancelled() ? "cancelled" : "paused");
            if (r.done() || held.open().isEmpty() || stop != null) release(r.leaseId());
        }
        AgentInfo a = agents.get(r.agentId());
        if (a != null) {
            AgentInfo b = a.counted(fresh.size()).seen(clock.getAsLong(), a.leaseId(), null);
            agents.put(b.agentId(), b);
            listener.agentChanged(b);
        }
        if (sweep != null) listener.sweepChanged(sweep);
        return stop;
    }

    /** Expires overdue leases and agents that stopped sending heartbeats, and forgets long-dead agents. Called periodically. */
    public void tick() {
        long now = clock.getAsLong();
        for (AgentInfo a : new ArrayList<>(agents.values())) {
            if (!a.alive() && now - a.lastSeen() > FORGET_DEAD_MS) {
                agents.remove(a.agentId());
                seenPublished.remove(a.agentId());
                listener.agentForgotten(a.agentId());
                continue;
            }
            if (a.alive() && now - a.lastSeen() > MISSED_HEARTBEATS * heartbeatMs) {
                if (a.leaseId() != null) {
                    release(a.leaseId());
                    listener.leaseExpired(EXPIRED_AGENT_LOST);
                }
                AgentInfo d = a.dead();
                agents.put(d.agentId(), d);
                listener.agentChanged(d);
            }
        }
        for (Held h : new ArrayList<>(leases.values())) {
            if (now > h.lease().deadline()) {
                release(h.lease().leaseId());
                listener.leaseExpired(EXPIRED_DEADLINE);
            }
        }
        for (SweepRun s : sweeps.values()) {
            if (s.retired() || !(s.cancelled() || s.done(now))) continue;
            long since = overSince.computeIfAbsent(s.id(), id -> now);
            if (now - since >= RETIRE_AFTER_MS) {
                s.retire(now);
                overSince.remove(s.id());
                listener.sweepRetired(s, now);
            }
        }
    }

    /** Ends a lease; candidates not reported under it go back to their search. */
    private void release(String leaseId) {
        Held h = leases.remove(leaseId);
        if (h == null) return;
        AgentInfo a = agents.get(h.lease().agentId());
        if (a != null && leaseId.equals(a.leaseId())) agents.put(a.agentId(), a.withLease(null));
        if (h.open().isEmpty()) {
            completed.put(leaseId, h.lease().agentId());
            Lease l = h.lease();
            if (l.round() == 0) sizer.finished(l.agentId(), l.sweepId(), l.key().id(), l.candidates().size(), clock.getAsLong() - h.lentAt());
        } else {
            expired.add(leaseId);
            SweepRun s = sweeps.get(h.lease().sweepId());
            Search search = s == null || a == null ? null : s.search(a.deviceClass(), h.lease().key());
            if (search != null && h.lease().round() > 0) search.giveBackRound(h.lease().round());
            else if (search != null) search.giveBack(new ArrayList<>(h.open().values()));
            if (s != null) listener.sweepChanged(s);
        }
    }

    private AgentInfo known(String agentId) {
        AgentInfo a = agentId == null ? null : agents.get(agentId);
        if (a == null) throw new ProtocolException("agentId: agent " + agentId + " is not registered");
        return a;
    }
}
