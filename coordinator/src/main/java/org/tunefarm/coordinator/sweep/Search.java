package org.tunefarm.coordinator.sweep;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tunefarm.coordinator.collect.LongDoubleMap;
import org.tunefarm.coordinator.collect.LongSet;
import org.tunefarm.coordinator.strategy.Prior;
import org.tunefarm.coordinator.strategy.Result;
import org.tunefarm.coordinator.strategy.Strategy;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Objective;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Lease.Candidate;
import org.tunefarm.space.SearchSpace;

/**
 * The search for one kernel key on one device class within a sweep: which candidates the
 * strategy proposed, which are out on lease, which came back, and when it is finished. The
 * family's default configuration is measured first, as the baseline for the speedup, then the
 * family's seeds (points known to be fast for the shape), then what the strategy proposes.
 *
 * <p>The strategy learns from latency whatever the sweep's objective: a sustained sweep explores
 * with short measurements and its finalists are the ones run sustained; an energy or EDP sweep
 * picks its finalists by that figure where the class's boards read energy, and by latency, with a
 * warning in its progress, where they do not. A THROTTLED measurement counts as a failed trial:
 * the agent already re-took it after cooling, and the record log keeps one record per candidate
 * and round, so it is not offered again; it never wins.
 * Not thread-safe: the dispatcher owns it.
 */
public final class Search {
    private final KernelKey key;
    private final String deviceClass;
    private final SearchSpace space;
    private final Strategy strategy;
    /** The default configuration's index in this space, or -1 when narrowing left it out. */
    private final long defaultIndex;
    /** Device classes whose records seeded the strategy (transfer), empty if none. */
    private final List<String> transferFrom;
    private final Map<String, Object> defaultConfig;
    private final int budget;
    private final long endsAt;

    private final Deque<Candidate> retry = new ArrayDeque<>();
    private final Set<Long> outstanding = new HashSet<>();
    /** Measured and proposed points, in primitive sets: a season's searches hold one entry per record. */
    private final LongSet recorded = new LongSet();
    private final LongSet proposed = new LongSet();
    private boolean baselineRecorded;
    /** Whether the strategy has heard how the default point did (from the baseline, or an old candidate record). */
    private boolean defaultTold;
    private boolean baselineOut;
    private boolean exhausted;
    private int failures;
    private int throttled;
    private final Objective objective;
    /** First-round figures of the sweep's objective, for an energy or EDP sweep's finalists. */
    private final LongDoubleMap okFigures = new LongDoubleMap();
    /** Finalists: the top-k OK candidates, re-measured interleaved once the budget is spent. */
    private final int finalistCount;
    private final LongDoubleMap okMedians = new LongDoubleMap();
    private List<Candidate> finalists;
    private final Map<Integer, String> roundAgent = new HashMap<>();
    private final Map<Integer, Set<Long>> roundRecorded = new HashMap<>();
    /** Finalist rounds: 1 on the first board that asks, 2 on another board of the class when one asks. */
    static final int FINAL_ROUNDS = 2;

    /** A finalists' lease: its round and the candidates, measured interleaved. */
    public record Finalists(int round, List<Candidate> candidates) {}

    /**
     * @param seeds the family's known-good points for the shape ({@link org.tunefarm.kernel.KernelSpec#seeds}): those
     *              valid in this space are lent right after the baseline, up to half the budget, so the
     *              strategy keeps the rest; the strategy is told their results like its own
     */
    Search(KernelKey key, String deviceClass, SearchSpace space, Strategy strategy, Map<String, Object> defaultConfig,
           List<Map<String, Object>> seeds, int budget, long endsAt, List<String> transferFrom, int finalistCount, Objective objective) {
        this.finalistCount = finalistCount;
        this.objective = objective;
        this.key = key;
        this.deviceClass = deviceClass;
        this.space = space;
        this.strategy = strategy;
        this.defaultConfig = defaultConfig;
        this.budget = budget;
        this.endsAt = endsAt;
        this.transferFrom = List.copyOf(transferFrom);
        defaultIndex = space.validIndex(defaultConfig).orElse(-1); // -1: outside the narrowed space
        // The default point is measured as the baseline, never lent again as a candidate: held back
        // from the strategy's proposals from the start, so whether it was proposed before the
        // baseline came back (and measured twice) no longer depends on timing, and a restored
        // baseline record cannot claim a default candidate whose own lease was lost.
        if (defaultIndex >= 0) proposed.add(defaultIndex);
        int room = budget == 0 ? Integer.MAX_VALUE : budget / 2;
        for (Map<String, Object> seed : seeds) {
            if (retry.size() >= room) break;
            space.validIndex(seed).ifPresent(i -> {
                if (proposed.add(i)) retry.add(new Candidate(i, space.config(i)));
            });
        }
    }

    public KernelKey key() { return key; }

    public String deviceClass() { return deviceClass; }

    public SearchSpace space() { return space; }

    /** When exploring stops (epoch ms), fixed when the class's searches began; 0 for no time budget. */
    public long endsAt() { return endsAt; }

    /**
     * Whether {@link #take} may lend anything now: false when it would surely come back empty (no
     * baseline or returned candidate waits, and the budget, the strategy or the time is spent), so
     * a pull need not size a lease for it.
     */
    public boolean mayLend(long now) {
        return baselineWaits() || !retry.isEmpty() || (budgetLeft() > 0 && mayPropose(now));
    }

    private boolean baselineWaits() {
        return !baselineRecorded && !baselineOut;
    }

    /** Whether the strategy may be asked for more: it is not spent, nor the sweep's time. */
    private boolean mayPropose(long now) {
        return !exhausted && (endsAt == 0 || now < endsAt);
    }

    /** Up to n candidates to lend out: the baseline first, then returned ones, then new proposals. */
    public List<Candidate> take(int n, long now) {
        List<Candidate> out = new ArrayList<>();
        if (baselineWaits()) {
            out.add(new Candidate(Candidate.BASELINE, defaultConfig));
            baselineOut = true;
        }
        while (out.size() < n && !retry.isEmpty()) {
            Candidate c = retry.poll();
            outstanding.add(c.index());
            out.add(c);
        }
        int room = Math.min(n - out.size(), budgetLeft());
        if (room > 0 && mayPropose(now)) {
            List<Long> fresh = strategy.propose(room);
            if (fresh.isEmpty() && strategy.finished()) exhausted = true;
            for (long i : fresh) {
                if (!proposed.add(i)) continue; // a strategy must not repeat itself; never measure twice
                outstanding.add(i);
                out.add(new Candidate(i, space.config(i)));
            }
        }
        return out;
    }

    /**
     * After a restore: asks the strategy for its next candidate, as a pull would, so a search whose
     * space is exhausted shows done before any agent asks; a candidate it proposes is lent first.
     */
    public void settle(long now) {
        if (exhausted || budgetLeft() == 0 || (endsAt != 0 && now >= endsAt) || !retry.isEmpty()) return;
        List<Long> next = strategy.propose(1);
        if (next.isEmpty() && strategy.finished()) exhausted = true;
        for (long i : next) if (proposed.add(i)) retry.add(new Candidate(i, space.config(i)));
    }

    /** The budget counts the baseline too: it is a point of the space (held in {@code proposed} from the start). */
    private int budgetLeft() {
        if (budget == 0) return Integer.MAX_VALUE;
        return Math.max(0, budget - proposed.size());
    }

    /** Candidates of an expired lease come back, to be lent again before anything new. */
    public void giveBack(List<Candidate> candidates) {
        for (Candidate c : candidates) {
            if (c.index() == Candidate.BASELINE) {
                if (!baselineRecorded) baselineOut = false;
            } else if (outstanding.remove(c.index()) && !recorded.contains(c.index())) {
                retry.add(c);
            }
        }
    }

    /**
     * The finalists for {@code agentId} once exploring is over: round 1 to the first board that
     * asks, round 2 to a different board of the class; null when there is nothing for it.
     */
    public Finalists takeFinalists(String agentId, long now) {
        if (!exploringDone(now)) return null;
        List<Candidate> fs = finalists();
        if (fs.isEmpty()) return null;
        for (int round = 1; round <= FINAL_ROUNDS; round++) {
            if (roundAgent.containsKey(round)) continue;
            if (round > 1 && roundAgent.containsValue(agentId)) return null; // another board, or none
            roundAgent.put(round, agentId);
            return new Finalists(round, fs);
        }
        return null;
    }

    /**
     * The top-k OK candidates by first-round median (by energy or EDP for such a sweep, where the
     * boards read it), fixed once computed.
     */
    List<Candidate> finalists() {
        if (finalists == null) {
            List<Ranked> all = new ArrayList<>();
            (ranksByFigure() && !okFigures.isEmpty() ? okFigures : okMedians).forEach((index, value) -> all.add(new Ranked(index, value)));
            finalists = all.stream().sorted(java.util.Comparator.comparingDouble(Ranked::value).thenComparingLong(Ranked::index))
                    .limit(finalistCount).map(r -> new Candidate(r.index(), space.config(r.index()))).toList();
        }
        return finalists;
    }

    private record Ranked(long index, double value) {}

    /** A finalists' lease expired: its round can be lent again, to any board. */
    public void giveBackRound(int round) {
        if (!roundDone(round)) roundAgent.remove(round);
    }

    private boolean roundDone(int round) {
        return finalists != null && roundRecorded.getOrDefault(round, Set.of()).size() >= finalists.size();
    }

    /** A measurement of this search became durable (now, or before a restart). */
    public void recorded(Measurement m) {
        recorded(Outcome.of(m, key, objective));
    }

    /** Energy and EDP rank finalists by their own figure; latency and sustained by the first-round median. */
    private boolean ranksByFigure() {
        return objective == Objective.ENERGY || objective == Objective.EDP;
    }

    /** Why this search ranks otherwise than its sweep asked, or null. */
    String warning() {
        if (ranksByFigure() && !okMedians.isEmpty() && okFigures.isEmpty()) {
            return "no energy readings from " + deviceClass + ": " + objective.text() + " finalists ranked by latency";
        }
        return null;
    }

    /** What a durable measurement of this search taught. */
    void recorded(Outcome m) {
        if (m.round() > 0) {
            roundRecorded.computeIfAbsent(m.round(), r -> new HashSet<>()).add(m.index());
            roundAgent.putIfAbsent(m.round(), m.agentId());
            return;
        }
        if (m.index() == Candidate.BASELINE) {
            baselineRecorded = true;
            baselineOut = false;
            // The baseline is a point of the space too: the strategy learns from it, once.
            if (defaultIndex >= 0 && !defaultTold) {
                defaultTold = true;
                strategy.tell(defaultIndex, result(m));
            }
            return;
        }
        outstanding.remove(m.index());
        retry.removeIf(c -> c.index() == m.index());
        if (recorded.add(m.index())) {
            proposed.add(m.index());
            if (m.status() != Status.OK) failures++;
            else if (m.ok()) okMedians.put(m.index(), m.medianNs());
            if (m.status() == Status.THROTTLED) throttled++;
            if (m.ok() && !Double.isNaN(m.figure())) okFigures.put(m.index(), m.figure());
            // A log written before the default was held back may hold it as a candidate too.
            if (m.index() != defaultIndex || !defaultTold) strategy.tell(m.index(), result(m));
            if (m.index() == defaultIndex) defaultTold = true;
        }
    }

    private static Result result(Outcome m) {
        return m.ok() ? Result.ok(m.medianNs() / 1e6) : Result.failed(m.status().name());
    }

    /** This search's OK measurements, as evidence for another device class's search of the same kernel. */
    public List<Prior> evidence() {
        List<Ranked> ok = new ArrayList<>(okMedians.size());
        okMedians.forEach((index, median) -> ok.add(new Ranked(index, median)));
        ok.sort(java.util.Comparator.comparingLong(Ranked::index)); // an order that does not depend on the table's layout
        return ok.stream().map(r -> new Prior(space.config(r.index()), r.value() / 1e6, deviceClass)).toList();
    }

    /** Whether a candidate index belongs to this search's space and is valid in it. */
    public boolean accepts(long index, Map<String, Object> params) {
        if (index == Candidate.BASELINE) return defaultConfig.equals(params);
        if (index < 0 || index >= space.size() || !space.isValid(index)) return false;
        return space.config(index).equals(params);
    }

    /** Done when exploring is over and round 1 of the finalists (if any) is recorded, with no round still out. */
    public boolean done(long now) {
        if (!exploringDone(now)) return false;
        if (finalistCount == 0 || finalists().isEmpty()) return true;
        if (!roundDone(1)) return false;
        for (int round = 2; round <= FINAL_ROUNDS; round++) if (roundAgent.containsKey(round) && !roundDone(round)) return false;
        return true;
    }

    private boolean exploringDone(long now) {
        boolean noMore = exhausted || budgetLeft() == 0 || (endsAt != 0 && now >= endsAt);
        return baselineRecorded && noMore && outstanding.isEmpty() && retry.isEmpty();
    }

    public Progress progress(long now) {
        return new Progress(deviceClass, key.id(), budget, recorded.size(), failures, outstanding.size() + retry.size(), baselineRecorded, done(now), transferFrom,
                endsAt, throttled, warning());
    }

    /**
     * What a user sees of a search in the sweep's status.
     *
     * @param transferFrom device classes whose records seeded this search's strategy
     * @param endsAt       when exploring stops under the sweep's time budget (epoch ms), 0 without one;
     *                     kept across restarts and takeovers
     * @param throttled    of the failed, those measured while the device throttled (after the agent's re-takes)
     * @param warning      why the search ranks otherwise than its sweep asked (an energy sweep on a
     *                     class without energy readings), or null
     */
    public record Progress(String deviceClass, String kernel, int budget, int measured, int failed, int pending, boolean baselineMeasured,
                           boolean done, List<String> transferFrom, long endsAt, int throttled, String warning) {}
}
