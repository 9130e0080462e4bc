package org.tunefarm.coordinator.sweep;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.tunefarm.kernel.CommandKernelDeclaration;
import org.tunefarm.kernel.CommandKernelSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.kernel.KernelSpecs;
import org.tunefarm.coordinator.strategy.Prior;
import org.tunefarm.coordinator.strategy.Strategies;
import org.tunefarm.space.SearchSpace;

/**
 * A sweep being run: its spec and, per device class that has agents, one {@link Search} per
 * shape. A class's searches begin when its first agent asks for work, with the space for that
 * class's core count and the time window from that moment; the sweep log keeps both, so a
 * restarted leader begins them again at once, with the same space and deadline.
 */
public final class SweepRun {
    private final String id;
    private final SweepSpec spec;
    private final long createdAt;
    private final KernelSpec family;
    private final Map<String, List<Search>> byClass = new LinkedHashMap<>();
    /** The same searches by kernel key: a report finds its search without a pass over the sweep's shapes. */
    private final Map<String, Map<KernelKey, List<Search>>> byKey = new HashMap<>();
    /**
     * What records of a class whose searches have not begun taught (a log written before class
     * starts were kept), applied when they begin. Outcomes, not records: a restored farm must not
     * hold every measurement in memory until an agent of the class pulls.
     */
    private final Map<String, List<Outcome>> backlog = new LinkedHashMap<>();
    private boolean paused;
    private boolean cancelled;
    private int priority;
    /** When this sweep last got a lease, in the dispatcher's count: equal priorities take turns by it. */
    private long lastLeased;
    /** Where its strategies refit their models; null: in the proposing call. */
    private java.util.concurrent.Executor strategyWork;
    /** The final status of a sweep that let its searches go ({@link #retire}); null while it keeps them. */
    private Status retired;

    public SweepRun(String id, SweepSpec spec, long createdAt) {
        this.id = id;
        this.spec = spec;
        this.createdAt = createdAt;
        // A command kernel's declaration travels in the spec, so a restarted coordinator can resume
        // the sweep (and price its records in GFLOP/s) before any agent has re-registered.
        this.family = spec.command() != null ? new CommandKernelSpec(spec.command()) : KernelSpecs.get(spec.kernel());
        this.priority = spec.priority();
    }

    /** Where the strategies of searches begun from now on do their heavy work (see {@code Strategies.create}); null: in the call. */
    public void strategyWorkIn(java.util.concurrent.Executor executor) {
        this.strategyWork = executor;
    }

    public int priority() { return priority; }

    public boolean paused() { return paused; }

    public boolean cancelled() { return cancelled; }

    /**
     * Lets the searches of a sweep that is over (done or cancelled) go, keeping only its final
     * status: their histories and models are a sweep's largest state, and a season of sweeps
     * would otherwise keep every one of them on the leader for good. Nothing is lost: the table
     * is derived from the records, not from the searches, and a done sweep never lends again.
     * Records of it that still arrive (a late copy) change nothing. No-op while it is not over.
     */
    public void retire(long now) {
        if (retired != null || !(cancelled || done(now))) return;
        retired = status(now);
        byClass.clear();
        byKey.clear();
        backlog.clear();
    }

    /** Whether {@link #retire} let the searches go. */
    public boolean retired() {
        return retired != null;
    }

    /** The last progress of the searches it let go: what the sweep log keeps of a retired sweep. Empty while it keeps them. */
    public List<Search.Progress> retiredSearches() {
        return retired == null ? List.of() : retired.searches();
    }

    /**
     * Restores a sweep as a leader let it go before a restart (the sweep log's retired line): only
     * its final status, and no searches, so the records of it that a restart reads teach nothing
     * and cost nothing. Cancelled or not comes from the sweep's own changes, applied as ever.
     */
    public void restoreRetired(List<Search.Progress> searches) {
        if (retired != null) return;
        byClass.clear();
        byKey.clear();
        backlog.clear();
        retired = new Status(id, spec.name(), spec.kernel(), "done", priority, createdAt, List.copyOf(searches), spec);
    }

    /** Whether agents may be lent this sweep's work now. */
    public boolean leasable(long now) {
        return !paused && !cancelled && !done(now);
    }

    public long lastLeased() { return lastLeased; }

    /** A lease of this sweep went out; {@code turn} grows with every lease the farm lends. */
    public void leased(long turn) {
        lastLeased = turn;
    }

    /**
     * Checks that a change can be made now.
     *
     * @return false when it would change nothing (pausing a paused sweep), so it need not be kept
     * @throws SweepControl.Refused naming the state that forbids it
     */
    public boolean allows(SweepControl.Action a, int newPriority, long now) {
        if (cancelled) {
            if (a == SweepControl.Action.CANCEL) return false;
            throw new SweepControl.Refused("state: sweep " + id + " is cancelled");
        }
        return switch (a) {
            case PAUSE -> {
                if (done(now)) throw new SweepControl.Refused("state: sweep " + id + " is done");
                yield !paused;
            }
            case RESUME -> paused;
            case CANCEL -> {
                if (done(now)) throw new SweepControl.Refused("state: sweep " + id + " is done");
                yield true;
            }
            case PRIORITY -> newPriority != priority;
        };
    }

    /** Applies a kept change (now, or from the sweep log after a restart). */
    public void apply(SweepControl c) {
        switch (c.action()) {
            case PAUSE -> paused = true;
            case RESUME -> paused = false;
            case CANCEL -> cancelled = true;
            case PRIORITY -> priority = c.priority();
        }
    }

    /** The kernel family the sweep tunes. */
    public KernelSpec family() { return family; }

    public String id() { return id; }

    public SweepSpec spec() { return spec; }

    public long createdAt() { return createdAt; }

    /**
     * Whether an agent of this class should work on this sweep: it runs the kernel, for a
     * command kernel it declares exactly the kernel the sweep was accepted for, and where it has
     * no vectors ({@code vectorBits} 0) the sweep leaves it a scalar variant.
     *
     * @param declared the agent's declaration of a command kernel by name, or null
     */
    public boolean targets(String deviceClass, List<String> families, Function<String, CommandKernelDeclaration> declared, int vectorBits) {
        if (!families.contains(spec.kernel())) return false;
        if (vectorBits == 0 && !family.runsWithoutVectors(spec.space())) return false;
        if (spec.command() != null && !spec.command().equals(declared.apply(spec.kernel()))) return false;
        return spec.deviceClasses().isEmpty() || spec.deviceClasses().contains(deviceClass);
    }

    /**
     * The searches for a device class, begun on first use, over the space its agents run:
     * {@code cores} threads at most, only scalar variants where {@code vectorBits} is 0, and only
     * what {@code registers} vector registers hold.
     *
     * @param now when they begin, if they do: their time window starts here (a restored class
     *            start passes its original moment)
     */
    public List<Search> searches(String deviceClass, int cores, int vectorBits, int registers, long now) {
        if (retired != null) return List.of();
        return byClass.computeIfAbsent(deviceClass, c -> {
            List<Search> out = new ArrayList<>();
            for (KernelKey key : spec.keys()) {
                SearchSpace space = family.forDevice(family.space(key, cores).narrow(spec.space(), spec.constraints()), vectorBits, registers);
                SweepSpec.StrategySpec s = spec.strategy();
                long seed = s.seed() * 31 + key.id().hashCode();
                // Transfer: other device classes' results for this kernel seed a strategy that can use them.
                List<Prior> priors = new ArrayList<>();
                if (Strategies.usesPriors(s.name())) {
                    for (List<Search> other : byClass.values()) {
                        for (Search o : other) if (o.key().equals(key)) priors.addAll(o.evidence());
                    }
                }
                List<String> from = priors.stream().map(Prior::deviceClass).distinct().sorted().toList();
                out.add(new Search(key, c, space, Strategies.create(s.name(), space, s.options(), seed, priors, strategyWork), family.defaultConfig(key, cores),
                        family.seeds(key, cores), s.budget(), s.seconds() == 0 ? 0 : now + s.seconds() * 1000, from,
                        spec.fidelity().finalists(), spec.objective()));
            }
            for (Outcome m : backlog.getOrDefault(c, List.of())) {
                for (Search x : out) if (x.key().equals(m.key())) x.recorded(m);
            }
            backlog.remove(c);
            Map<KernelKey, List<Search>> keyed = new HashMap<>();
            for (Search x : out) keyed.computeIfAbsent(x.key(), k -> new ArrayList<>(1)).add(x);
            byKey.put(c, keyed);
            return out;
        });
    }

    /** A durable record of this sweep: applied to its search, or kept (as its outcome) until the class begins. */
    public void recorded(org.tunefarm.measure.Measurement m) {
        if (retired != null) return;
        Map<KernelKey, List<Search>> keyed = byKey.get(m.deviceClass());
        if (keyed != null) {
            for (Search x : keyed.getOrDefault(m.key(), List.of())) x.recorded(m);
            return;
        }
        for (KernelKey key : spec.keys()) {
            if (key.equals(m.key())) backlog.computeIfAbsent(m.deviceClass(), k -> new ArrayList<>()).add(Outcome.of(m, key, spec.objective()));
        }
    }

    /** The class's search of {@code key}, or null while the class has not begun (or the sweep has no such shape). */
    public Search search(String deviceClass, KernelKey key) {
        Map<KernelKey, List<Search>> keyed = byKey.get(deviceClass);
        List<Search> l = keyed == null ? null : keyed.get(key);
        return l == null ? null : l.get(0);
    }

    public boolean hasClass(String deviceClass) {
        if (retired != null) return retired.searches().stream().anyMatch(p -> p.deviceClass().equals(deviceClass));
        return byClass.containsKey(deviceClass);
    }

    /** Done when every targeted class that has started is done, and at least one has. */
    public boolean done(long now) {
        if (retired != null) return !cancelled;
        if (byClass.isEmpty()) return false;
        for (String c : spec.deviceClasses()) if (!byClass.containsKey(c)) return false;
        return byClass.values().stream().flatMap(List::stream).allMatch(s -> s.done(now));
    }

    public Status status(long now) {
        if (retired != null) {
            return new Status(id, spec.name(), spec.kernel(), state(now), priority, createdAt, retired.searches(), spec);
        }
        List<Search.Progress> ps = byClass.values().stream().flatMap(List::stream).map(s -> s.progress(now)).toList();
        return new Status(id, spec.name(), spec.kernel(), state(now), priority, createdAt, ps, spec);
    }

    /** cancelled, done, paused, waiting (no agent of a targeted class yet) or running. */
    public String state(long now) {
        if (cancelled) return "cancelled";
        if (done(now)) return "done";
        if (paused) return "paused";
        return byClass.isEmpty() ? "waiting" : "running";
    }

    /**
     * A sweep as REST shows it.
     *
     * @param state    {@code waiting}, {@code running}, {@code paused}, {@code cancelled} or {@code done}
     * @param priority higher leases first among sweeps that share agents
     */
    public record Status(String id, String name, String kernel, String state, int priority, long createdAt, List<Search.Progress> searches,
                         SweepSpec spec) {}
}
