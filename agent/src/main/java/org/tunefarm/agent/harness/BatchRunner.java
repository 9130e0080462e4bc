package org.tunefarm.agent.harness;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Status;
import org.tunefarm.measure.Thermal;

/**
 * Runs a batch on a fresh worker, in a seeded shuffled order so that drift (heat, other load)
 * spreads over all candidates instead of penalising the last ones, and reports each measurement as
 * it finishes. Crashes and timeouts are measurements too; the batch carries on. What the lease asks
 * for is checked first ({@link CandidateCheck}): a candidate outside its family's space is recorded
 * INVALID and never reaches the worker.
 *
 * <p>The board's heat is watched throughout ({@link ThermalGuard}): the batch waits for the board to
 * cool first; a measurement that ran throttled is taken again after cooling, and reported THROTTLED
 * if it still is; each record says how warm the board was, how long it waited, and joules per
 * call where the board reports power or energy. A sustained sweep's finalists each run without
 * pause for the sweep's seconds, each from a cool board.
 */
public final class BatchRunner {

    private final Supplier<Worker> workers;
    private final Sensors sensors;
    private final String agentId;
    private final String deviceClass;
    private final Clock clock;
    private final CandidateCheck check;
    private final ThermalGuard guard;
    /** Kept in hand before a lease's deadline for the last reports' round trips. */
    static final long REPORT_RESERVE_MS = 10_000;

    /** A runner that runs whatever the batch names: for tests of families without a declared space. */
    public BatchRunner(Supplier<Worker> workers, Sensors sensors, String agentId, String deviceClass, Clock clock) {
        this(workers, sensors, agentId, deviceClass, clock, CandidateCheck.NONE);
    }

    /** A runner that never waits for the board to cool (no start temperature), but still detects throttling. */
    public BatchRunner(Supplier<Worker> workers, Sensors sensors, String agentId, String deviceClass, Clock clock, CandidateCheck check) {
        this(workers, sensors, agentId, deviceClass, clock, check,
                new ThermalGuard(sensors, ThermalSettings.DEFAULTS, null, null, clock::millis, Thread::sleep));
    }

    /**
     * @param workers     makes the worker for one batch; it is closed when the batch ends
     * @param sensors     read before, during and after each candidate
     * @param check       what may run at all; a refused candidate is recorded INVALID without running
     * @param guard       the board's cooldown gate and throttle detection, shared by every runner of the agent
     */
    public BatchRunner(Supplier<Worker> workers, Sensors sensors, String agentId, String deviceClass, Clock clock, CandidateCheck check,
                       ThermalGuard guard) {
        this.workers = workers;
        this.sensors = sensors;
        this.agentId = agentId;
        this.deviceClass = deviceClass;
        this.clock = clock;
        this.check = check;
        this.guard = guard;
    }

    /** The run order of a batch: positions into its candidate list, shuffled by {@code seed}. */
    public static List<Integer> runOrder(int size, long seed) {
        List<Integer> order = new ArrayList<>(size);
        for (int i = 0; i < size; i++) order.add(i);
        Collections.shuffle(order, new Random(seed));
        return order;
    }

    /**
     * Measures every candidate of the batch, calling {@code onResult} as each finishes, in run
     * order. Returns how many were measured: fewer than the batch only when the thread was
     * interrupted, which stops the batch. A finalists' batch (round 1 and up) is measured
     * interleaved and reported together at its end, or, for a sustained sweep, one after another,
     * each running without pause.
     */
    public int run(Batch batch, Consumer<Measurement> onResult) {
        List<Integer> order = runOrder(batch.candidates().size(), batch.settings().seed());
        int done = 0;
        try (Worker worker = workers.get()) {
            if (batch.sustained()) return sustained(batch, order, worker, onResult);
            if (batch.round() > 0) return interleaved(batch, order, worker, onResult);
            // Refused before any code runs: an operation this agent lacks or a point outside its
            // space. All are checked here, in one go, rather than each between two measurements,
            // where the check ran cold and its time was the farm's overhead.
            String[] refusals = new String[batch.candidates().size()];
            for (int i = 0; i < refusals.length; i++) refusals[i] = check.refusal(batch.key(), batch.candidates().get(i).params());
            CooldownGate.Cooldown cooled = guard.cool(waitLimitMs(batch, order.size()));
            for (int position = 0; position < order.size(); position++) {
                if (Thread.currentThread().isInterrupted()) break;
                BatchCandidate c = batch.candidates().get(order.get(position));
                String refusal = refusals[order.get(position)];
                if (refusal != null) {
                    onResult.accept(refused(batch, c, refusal, position));
                    done++;
                    continue;
                }
                Measurement m = guarded(batch, c, order.size() - position, cooled, () -> worker.measure(batch.key(), c.params(), batch.settings()));
                cooled = CooldownGate.Cooldown.NONE; // the batch's wait belongs to its first candidate
                // An interrupted worker answers CRASH; that is a cancelled batch, not the kernel's fault.
                if (m == null) break;
                onResult.accept(m);
                done++;
            }
        }
        return done;
    }

    /**
     * One try at a candidate, with what the sensors said around and during its last take: the
     * record's heat and energy are that take's. {@code startedAt} is the first take's start.
     */
    private record Attempt(SensorReading before, SensorReading after, long startedAt, long finishedAt, Retakes.Taken taken,
                           List<TimedReading> during, String throttle, long waitedMs, boolean timedOut) {}

    /** The last take of an attempt, as the sensors saw it. */
    private record Take(SensorReading before, SensorReading after, long finishedAt, List<TimedReading> during) {}

    /**
     * Takes the candidate under the noise guard ({@link Retakes}). With {@code coolEachTake}, a
     * noisy take is taken again only once the board has cooled, as the first was: for a candidate
     * already seen throttled, whose takes back to back heat the board past its trip point
     * themselves, so every re-take of it would be throttled by its own noise re-takes, not by
     * the candidates before it.
     */
    private Attempt attempt(Batch batch, int still, Supplier<CandidateOutcome> measure, boolean coolEachTake) {
        long startedAt = clock.millis();
        Take[] last = new Take[1];
        long[] waited = new long[1];
        boolean[] timedOut = new boolean[1];
        Retakes.Taken taken = Retakes.measure(() -> {
            if (coolEachTake && last[0] != null) {
                CooldownGate.Cooldown cooled = guard.cool(waitLimitMs(batch, still));
                waited[0] += cooled.waitedMs();
                timedOut[0] |= cooled.timedOut();
            }
            SensorReading before = read();
            SensorWatch.Watching watching = guard.watch();
            CandidateOutcome o = measure.get();
            List<TimedReading> during = watching.stop();
            last[0] = new Take(before, read(), clock.millis(), during);
            return o;
        }, batch.fidelity());
        Take t = last[0];
        CandidateOutcome o = taken.outcome();
        String throttle = o.status() == Status.OK ? guard.throttle(t.during(), o.drift()) : null;
        return new Attempt(t.before(), t.after(), startedAt, t.finishedAt(), taken, t.during(), throttle, waited[0], timedOut[0]);
    }

    /**
     * Measures a candidate; while the measurement ran throttled, cools the board and takes it
     * again, up to the settings' re-takes, each take of it from a cool board. Null when interrupted.
     */
    private Measurement guarded(Batch batch, BatchCandidate c, int still, CooldownGate.Cooldown cooled, Supplier<CandidateOutcome> measure) {
        int position = batch.candidates().size() - still;
        long waited = cooled.waitedMs();
        boolean timedOut = cooled.timedOut();
        Attempt a = attempt(batch, still, measure, false);
        List<String> throttles = new ArrayList<>();
        // A re-take is one more measurement: only while the lease leaves time for it and the rest.
        while (a.throttle() != null && throttles.size() < guard.maxThrottleRetakes() && slackMs(batch, still) > 0
                && !Thread.currentThread().isInterrupted()) {
            throttles.add(a.throttle());
            waited += a.waitedMs();
            timedOut |= a.timedOut();
            CooldownGate.Cooldown again = guard.cool(waitLimitMs(batch, still));
            waited += again.waitedMs();
            timedOut |= again.timedOut();
            if (Thread.currentThread().isInterrupted()) return null;
            a = attempt(batch, still, measure, true);
        }
        if (Thread.currentThread().isInterrupted()) return null;
        waited += a.waitedMs();
        timedOut |= a.timedOut();
        CandidateOutcome o = a.taken().outcome();
        Status status = a.throttle() != null ? Status.THROTTLED : o.status();
        String detail = join(a.taken().note(), throttleNote(throttles, a.throttle()));
        Double energy = o.status() == Status.OK ? EnergyMeter.perCall(a.during(), o.window()) : null;
        return new Measurement(batch.sweepId(), batch.key(), c.index(), c.params(), status, o.stats(), o.maxError(), a.before(), a.after(),
                detail, agentId, deviceClass, a.startedAt(), a.finishedAt(), position, 0,
                thermal(a.before(), waited, timedOut, a.throttle()), o.sustainedNs(), energy);
    }

    /** Finalists: one interleaved measurement of the whole group, in the shuffled order, from a cool board. */
    private int interleaved(Batch batch, List<Integer> order, Worker worker, Consumer<Measurement> onResult) {
        List<BatchCandidate> all = order.stream().map(batch.candidates()::get).toList();
        for (BatchCandidate c : all) {
            String refusal = check.refusal(batch.key(), c.params());
            if (refusal != null) onResult.accept(refused(batch, c, refusal, 0));
        }
        List<BatchCandidate> group = all.stream().filter(c -> check.refusal(batch.key(), c.params()) == null).toList();
        if (group.isEmpty()) return all.size();
        CooldownGate.Cooldown cooled = guard.cool(waitLimitMs(batch, group.size()));
        long waited = cooled.waitedMs();
        boolean timedOut = cooled.timedOut();
        List<String> retaken = new ArrayList<>();
        while (true) {
            if (Thread.currentThread().isInterrupted()) return 0;
            SensorReading before = read();
            long startedAt = clock.millis();
            SensorWatch.Watching watching = guard.watch();
            List<CandidateOutcome> outcomes = worker.measureInterleaved(batch.key(), group.stream().map(BatchCandidate::params).toList(), batch.settings());
            List<TimedReading> during = watching.stop();
            long finishedAt = clock.millis();
            if (Thread.currentThread().isInterrupted()) return 0;
            SensorReading after = read();
            List<String> throttles = new ArrayList<>();
            for (CandidateOutcome o : outcomes) throttles.add(o.status() == Status.OK ? guard.throttle(during, o.drift()) : null);
            String any = throttles.stream().filter(t -> t != null).findFirst().orElse(null);
            if (any != null && retaken.size() < guard.maxThrottleRetakes() && slackMs(batch, group.size()) > 0) {
                // The group shares the board: one throttled member means all ran on a hot one.
                retaken.add(any);
                CooldownGate.Cooldown again = guard.cool(waitLimitMs(batch, group.size()));
                waited += again.waitedMs();
                timedOut |= again.timedOut();
                continue;
            }
            String note = "finalist round " + batch.round() + ", interleaved with " + (group.size() - 1) + " other(s)";
            for (int position = 0; position < group.size(); position++) {
                BatchCandidate c = group.get(position);
                CandidateOutcome o = outcomes.get(position);
                String throttle = throttles.get(position);
                String detail = join(join(note, o.detail()), throttleNote(retaken, throttle));
                // Energy is not attributed: interleaved candidates share every power reading.
                onResult.accept(new Measurement(batch.sweepId(), batch.key(), c.index(), c.params(), throttle != null ? Status.THROTTLED : o.status(),
                        o.stats(), o.maxError(), before, after, detail, agentId, deviceClass, startedAt, finishedAt, position, batch.round(),
                        thermal(before, position == 0 ? waited : 0, position == 0 && timedOut, throttle), null, null));
            }
            return group.size();
        }
    }

    /**
     * A sustained sweep's finalists: each, from a cool board, runs without pause for the sweep's
     * seconds. Throttling is what this measures, so it is recorded, not re-taken.
     */
    private int sustained(Batch batch, List<Integer> order, Worker worker, Consumer<Measurement> onResult) {
        int done = 0;
        for (int position = 0; position < order.size(); position++) {
            if (Thread.currentThread().isInterrupted()) break;
            BatchCandidate c = batch.candidates().get(order.get(position));
            String refusal = check.refusal(batch.key(), c.params());
            if (refusal != null) {
                onResult.accept(refused(batch, c, refusal, position).inRound(batch.round()));
                done++;
                continue;
            }
            CooldownGate.Cooldown cooled = guard.cool(waitLimitMs(batch, order.size() - position));
            if (Thread.currentThread().isInterrupted()) break;
            SensorReading before = read();
            long startedAt = clock.millis();
            SensorWatch.Watching watching = guard.watch();
            CandidateOutcome o = worker.sustain(batch.key(), c.params(), batch.settings(), batch.sustainedSeconds());
            List<TimedReading> during = watching.stop();
            long finishedAt = clock.millis();
            if (Thread.currentThread().isInterrupted()) break;
            SensorReading after = read();
            String note = String.format(Locale.ROOT, "finalist round %d, sustained %.0f s%s", batch.round(), batch.sustainedSeconds(), heat(during));
            Double energy = o.status() == Status.OK ? EnergyMeter.perCall(during, o.window()) : null;
            onResult.accept(new Measurement(batch.sweepId(), batch.key(), c.index(), c.params(), o.status(), o.stats(), o.maxError(), before, after,
                    join(note, o.detail()), agentId, deviceClass, startedAt, finishedAt, position, batch.round(),
                    thermal(before, cooled.waitedMs(), cooled.timedOut(), null), o.sustainedNs(), energy));
            done++;
        }
        return done;
    }

    /**
     * How long the batch may still wait for the board before {@code still} more measurements: the
     * sweep's cooldown timeout (the lease's deadline allows one), and never so long that the
     * measurements left, each at its full allowance, and the reports would overrun the deadline.
     */
    private long waitLimitMs(Batch batch, int still) {
        return Math.min(batch.fidelity().cooldownTimeoutMs(), Math.max(0, slackMs(batch, still)));
    }

    /** Time to spare before the lease's deadline once {@code still} more measurements have had their allowance. */
    private long slackMs(Batch batch, int still) {
        if (batch.deadlineMs() == Long.MAX_VALUE) return Long.MAX_VALUE;
        return batch.deadlineMs() - clock.millis() - still * batch.allowanceMs() - REPORT_RESERVE_MS;
    }

    /** What the board went through during a sustained run: the lowest clock and the highest temperature. */
    private static String heat(List<TimedReading> during) {
        Double minMhz = null, maxC = null;
        for (TimedReading t : during) {
            SensorReading r = t.reading();
            if (r.clockMhz() != null && (minMhz == null || r.clockMhz() < minMhz)) minMhz = r.clockMhz();
            if (r.temperatureC() != null && (maxC == null || r.temperatureC() > maxC)) maxC = r.temperatureC();
        }
        String s = (minMhz == null ? "" : String.format(Locale.ROOT, ", clock down to %.0f MHz", minMhz))
                + (maxC == null ? "" : String.format(Locale.ROOT, ", up to %.1f °C", maxC));
        return s;
    }

    private Measurement refused(Batch batch, BatchCandidate c, String refusal, int position) {
        long now = clock.millis();
        SensorReading r = read();
        return new Measurement(batch.sweepId(), batch.key(), c.index(), c.params(), Status.INVALID, null, null, r, r, refusal,
                agentId, deviceClass, now, now, position, 0);
    }

    /**
     * The record's heat: null when the board has neither thermometer nor clock and nothing was
     * seen (as older agents wrote), so a board without sensors does not claim it watched.
     */
    private static Thermal thermal(SensorReading before, long waitedMs, boolean timedOut, String throttle) {
        if (before.temperatureC() == null && before.clockMhz() == null && throttle == null && waitedMs == 0 && !timedOut) return null;
        return new Thermal(before.temperatureC(), waitedMs, timedOut, throttle);
    }

    /** The record's note on throttling: the re-takes and why, and whether the last one still was. */
    static String throttleNote(List<String> retaken, String still) {
        if (retaken.isEmpty()) return still == null ? "" : "throttled: " + still;
        String s = "throttled (" + retaken.get(0) + "), re-taken " + retaken.size() + "x after cooling";
        return still == null ? s : s + "; still throttled: " + still;
    }

    private static String join(String a, String b) {
        if (a == null || a.isEmpty()) return b == null ? "" : b;
        if (b == null || b.isEmpty()) return a;
        return a + "; " + b;
    }

    private SensorReading read() {
        return ThermalGuard.read(sensors);
    }
}
