package org.tunefarm.agent.harness;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.tunefarm.agent.sensors.Sensors;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Status;

/**
 * Runs a batch on a fresh worker, in a seeded shuffled order so that drift (heat, other load)
 * spreads over all candidates instead of penalising the last ones, and reports each measurement as
 * it finishes. Crashes and timeouts are measurements too; the batch carries on. What the lease asks
 * for is checked first ({@link CandidateCheck}): a candidate outside its family's space is recorded
 * INVALID and never reaches the worker.
 */
public final class BatchRunner {

    private final Supplier<Worker> workers;
    private final Sensors sensors;
    private final String agentId;
    private final String deviceClass;
    private final Clock clock;
    private final CandidateCheck check;

    /** A runner that runs whatever the batch names: for tests of families without a declared space. */
    public BatchRunner(Supplier<Worker> workers, Sensors sensors, String agentId, String deviceClass, Clock clock) {
        this(workers, sensors, agentId, deviceClass, clock, CandidateCheck.NONE);
    }

    /**
     * @param workers     makes the worker for one batch; it is closed when the batch ends
     * @param sensors     read before and after each candidate
     * @param check       what may run at all; a refused candidate is recorded INVALID without running
     */
    public BatchRunner(Supplier<Worker> workers, Sensors sensors, String agentId, String deviceClass, Clock clock, CandidateCheck check) {
        this.workers = workers;
        this.sensors = sensors;
        this.agentId = agentId;
        this.deviceClass = deviceClass;
        this.clock = clock;
        this.check = check;
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
     * interleaved and reported together at its end.
     */
    public int run(Batch batch, Consumer<Measurement> onResult) {
        List<Integer> order = runOrder(batch.candidates().size(), batch.settings().seed());
        int done = 0;
        try (Worker worker = workers.get()) {
            if (batch.round() > 0) return interleaved(batch, order, worker, onResult);
            for (int position = 0; position < order.size(); position++) {
                if (Thread.currentThread().isInterrupted()) break;
                BatchCandidate c = batch.candidates().get(order.get(position));
                SensorReading before = read();
                long startedAt = clock.millis();
                // Refused before any code runs: an operation this agent lacks or a point outside its space.
                String refusal = check.refusal(batch.key(), c.params());
                Retakes.Taken taken = refusal != null ? new Retakes.Taken(CandidateOutcome.failed(Status.INVALID, refusal), 0, refusal)
                        : Retakes.measure(worker, batch.key(), c.params(), batch.settings(), batch.fidelity());
                CandidateOutcome outcome = taken.outcome();
                long finishedAt = clock.millis();
                // An interrupted worker answers CRASH; that is a cancelled batch, not the kernel's fault.
                if (Thread.currentThread().isInterrupted()) break;
                SensorReading after = read();
                String detail = taken.note();
                onResult.accept(new Measurement(batch.sweepId(), batch.key(), c.index(), c.params(),
                        outcome.status(), outcome.stats(), outcome.maxError(), before, after, detail,
                        agentId, deviceClass, startedAt, finishedAt, position, 0));
                done++;
            }
        }
        return done;
    }

    /** Finalists: one interleaved measurement of the whole group, in the shuffled order. */
    private int interleaved(Batch batch, List<Integer> order, Worker worker, Consumer<Measurement> onResult) {
        List<BatchCandidate> all = order.stream().map(batch.candidates()::get).toList();
        for (BatchCandidate c : all) {
            String refusal = check.refusal(batch.key(), c.params());
            if (refusal != null) {
                long now = clock.millis();
                onResult.accept(new Measurement(batch.sweepId(), batch.key(), c.index(), c.params(), Status.INVALID, null, null,
                        SensorReading.NONE, SensorReading.NONE, refusal, agentId, deviceClass, now, now, 0, batch.round()));
            }
        }
        List<BatchCandidate> group = all.stream().filter(c -> check.refusal(batch.key(), c.params()) == null).toList();
        if (group.isEmpty()) return all.size();
        SensorReading before = read();
        long startedAt = clock.millis();
        List<CandidateOutcome> outcomes = worker.measureInterleaved(batch.key(), group.stream().map(BatchCandidate::params).toList(), batch.settings());
        long finishedAt = clock.millis();
        if (Thread.currentThread().isInterrupted()) return 0;
        SensorReading after = read();
        String note = "finalist round " + batch.round() + ", interleaved with " + (group.size() - 1) + " other(s)";
        for (int position = 0; position < group.size(); position++) {
            BatchCandidate c = group.get(position);
            CandidateOutcome o = outcomes.get(position);
            String detail = o.detail().isEmpty() ? note : note + ": " + o.detail();
            onResult.accept(new Measurement(batch.sweepId(), batch.key(), c.index(), c.params(), o.status(), o.stats(), o.maxError(),
                    before, after, detail, agentId, deviceClass, startedAt, finishedAt, position, batch.round()));
        }
        return group.size();
    }

    /** Sensors are evidence, not a precondition: a failing sensor is recorded as absent. */
    private SensorReading read() {
        try {
            SensorReading r = sensors.read();
            return r == null ? SensorReading.NONE : r;
        } catch (RuntimeException e) {
            return SensorReading.NONE;
        }
    }
}
