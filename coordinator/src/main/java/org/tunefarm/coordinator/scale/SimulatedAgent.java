package org.tunefarm.coordinator.scale;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import java.util.ArrayList;
import java.util.List;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.SleepSpec;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Ack;
import org.tunefarm.protocol.Enroll;
import org.tunefarm.protocol.Enrolled;
import org.tunefarm.protocol.Heartbeat;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Pull;
import org.tunefarm.protocol.Register;
import org.tunefarm.protocol.Registered;
import org.tunefarm.protocol.Report;
import org.tunefarm.protocol.Work;

/**
 * One agent of {@code bench farm}, many to a JVM: its own connection, id, credential and
 * heartbeat, and the agent's loop (pull a lease, measure each candidate and report it without
 * waiting for the acknowledgement before the next, as the agent's {@code ReportStream} does, close
 * the lease with a {@code done} report once every result is acknowledged, pull again).
 * Its kernel takes a fixed time on a timer, so no CPU is spent measuring; it reports what an
 * honest sleep harness would measure for the candidate. Everything runs on the agent's own
 * event-loop context; the figures are read once the agent has stopped.
 */
final class SimulatedAgent {
    private static final long REQUEST_TIMEOUT_MS = 30_000;
    /** Samples of each reported measurement, as a harness with minSamples 10 would take. */
    private static final int SAMPLES = 10;

    /** A lease received: when the pull went out and when the lease came back (System.nanoTime). */
    record Dispatch(long pulledNs, long leasedNs) {}

    /** A candidate measured: its timer started and fired, and the farm acknowledged its report (System.nanoTime). */
    record Candidate(long startNs, long endNs, long ackedNs) {}

    private final Vertx vertx;
    private final String id;
    private final DeviceProfile profile;
    private final long candidateMs;
    private final BridgeLink link;
    private final List<Dispatch> dispatches = new ArrayList<>();
    private final List<Candidate> candidates = new ArrayList<>();
    private final Promise<Void> stopped = Promise.promise();
    private Context context;
    private String deviceClass;
    private String leaseId;
    private long heartbeat = -1;
    private volatile boolean stopping;
    /** When its first lease came (System.nanoTime), 0 before: the step's window opens once every agent has one. */
    private volatile long firstLeaseNs;
    /** When, after its first lease, a pull first found no work (System.nanoTime), 0 before: the sweep ran dry. */
    private volatile long ranDryNs;
    private volatile int errors;
    private volatile String firstError;

    SimulatedAgent(Vertx vertx, String id, String farmToken, DeviceProfile profile, long candidateMs) {
        this.vertx = vertx;
        this.id = id;
        this.profile = profile;
        this.candidateMs = candidateMs;
        this.link = new BridgeLink(vertx, id, farmToken);
    }

    /**
     * Connects, enrolls with the farm token, registers with the credential it got, and starts
     * heartbeats; completes once registered. Its loop starts with {@link #work()}.
     */
    Future<Void> join(NetClient client, String host, int port) {
        context = vertx.getOrCreateContext();
        Promise<Void> joined = Promise.promise();
        context.runOnContext(v -> link.connect(client, host, port)
                .compose(x -> link.request(Protocol.ENROLL, new Enroll(id), REQUEST_TIMEOUT_MS))
                .compose(e -> {
                    link.useToken(Protocol.read(e, Enrolled.class).credential());
                    return link.request(Protocol.REGISTER, new Register(id, profile, List.of("sleep")), REQUEST_TIMEOUT_MS);
                })
                .map(r -> {
                    Registered reg = Protocol.read(r, Registered.class);
                    deviceClass = reg.deviceClass();
                    heartbeat = vertx.setPeriodic(reg.heartbeatMs(), t -> link.request(Protocol.HEARTBEAT,
                            new Heartbeat(id, leaseId, SensorReading.NONE), reg.heartbeatMs() * 3).onFailure(e -> { }));
                    return (Void) null;
                })
                .onComplete(joined));
        return joined.future();
    }

    /** Starts the pull loop; it runs until {@link #stop()}. */
    void work() {
        context.runOnContext(v -> pull());
    }

    /** Ends the loop after the candidate in hand; completes once the agent is idle. */
    Future<Void> stop() {
        stopping = true;
        return stopped.future();
    }

    /** Closes the connection, as an agent that is shut down does; stop it first. */
    Future<Void> close() {
        Promise<Void> closed = Promise.promise();
        context.runOnContext(v -> {
            if (heartbeat >= 0) vertx.cancelTimer(heartbeat);
            link.close().onComplete(closed);
        });
        return closed.future();
    }

    private void pull() {
        if (stopping || !link.connected()) {
            stopped.tryComplete();
            return;
        }
        long pulled = System.nanoTime();
        link.request(Protocol.PULL, new Pull(id), REQUEST_TIMEOUT_MS).onComplete(ar -> {
            if (ar.failed()) {
                failed(ar.cause());
                return;
            }
            Work w = Protocol.read(ar.result(), Work.class);
            long now = System.nanoTime();
            if (w.lease() == null) {
                if (firstLeaseNs != 0 && ranDryNs == 0) ranDryNs = now;
                vertx.setTimer(Math.max(50, w.retryMs()), t -> pull());
                return;
            }
            dispatches.add(new Dispatch(pulled, now));
            if (firstLeaseNs == 0) firstLeaseNs = now;
            leaseId = w.lease().leaseId();
            measure(w.lease());
        });
    }

    /**
     * Measures a lease as the agent does: each candidate's time on a timer, one after another; each
     * result is reported as it is taken, one report out at a time and at the lease's pace, and
     * results taken while one is out or held back go together in the next, so measuring never
     * waits for the farm's acknowledgement. A refusal or a stop from the farm ends the lease; the
     * lease is reported done once every result was acknowledged.
     */
    private void measure(Lease lease) {
        new LeaseRun(lease).next();
    }

    /** One lease in progress, on the agent's context. */
    private final class LeaseRun {
        private final Lease lease;
        private int taken;
        /** Taken, not yet sent: each with when its timer started and fired. */
        private final List<Measurement> waiting = new ArrayList<>();
        private final List<long[]> waitingTimes = new ArrayList<>();
        private boolean sending;
        /** A report waits for the lease's pace ({@link Lease#reportEveryMs}), as the agent's stream holds it back. */
        private boolean paced;
        /** When the last report with results went out; at first, a pace ago, so the first goes at once. */
        private long lastSentNs;
        private boolean over;

        LeaseRun(Lease lease) {
            this.lease = lease;
            this.lastSentNs = System.nanoTime() - lease.reportEveryMs() * 1_000_000L;
        }

        void next() {
            if (over) return;
            if (ended()) {
                if (!sending && !paced) finish();
                return;
            }
            int i = taken;
            long start = System.nanoTime();
            long startedAt = System.currentTimeMillis();
            vertx.setTimer(candidateMs, t -> {
                if (over) return;
                waiting.add(measurement(lease, lease.candidates().get(i), i, startedAt, System.currentTimeMillis()));
                waitingTimes.add(new long[] {start, System.nanoTime()});
                taken++;
                sendWhenPaced();
                next();
            });
        }

        private boolean ended() {
            return taken == lease.candidates().size() || stopping;
        }

        /** Sends what waits if no report is out and the pace allows; the end of the batch does not wait for the pace. */
        private void sendWhenPaced() {
            if (sending || waiting.isEmpty()) return;
            long wait = ended() ? 0 : lastSentNs + lease.reportEveryMs() * 1_000_000L - System.nanoTime();
            if (wait <= 0) {
                paced = false;
                send();
                return;
            }
            if (paced) return;
            paced = true;
            vertx.setTimer(Math.max(1, (wait + 999_999) / 1_000_000), t -> {
                if (!paced || over) return;
                paced = false;
                sendWhenPaced();
            });
        }

        private void send() {
            List<Measurement> batch = List.copyOf(waiting);
            List<long[]> times = List.copyOf(waitingTimes);
            waiting.clear();
            waitingTimes.clear();
            sending = true;
            lastSentNs = System.nanoTime();
            link.request(Protocol.REPORT, new Report(id, lease.leaseId(), batch, false), REQUEST_TIMEOUT_MS).onComplete(ar -> {
                sending = false;
                if (over) return;
                if (ar.failed()) {
                    end();
                    failed(ar.cause());
                    return;
                }
                Ack ack = Protocol.read(ar.result(), Ack.class);
                long acked = System.nanoTime();
                for (long[] t : times) candidates.add(new Candidate(t[0], t[1], acked));
                if (!ack.ok() || ack.stopLease()) { // refused, or the sweep was cancelled: the rest of the lease is not wanted
                    end();
                    if (!ack.ok()) failed(new IllegalStateException("report refused: " + ack.message()));
                    else pull();
                    return;
                }
                if (!waiting.isEmpty()) sendWhenPaced();
                else if (ended()) finish();
            });
        }

        private void finish() {
            end();
            link.request(Protocol.REPORT, new Report(id, lease.leaseId(), List.of(), true), REQUEST_TIMEOUT_MS).onComplete(ar -> {
                if (ar.failed()) failed(ar.cause());
                else pull();
            });
        }

        private void end() {
            over = true;
            leaseId = null;
        }
    }

    /** What an honest sleep harness reports for the candidate: its known time per call, over several samples. */
    private Measurement measurement(Lease lease, Lease.Candidate c, int order, long startedAt, long finishedAt) {
        double ns = 1000.0 * SleepSpec.sleepMicros(lease.key(), c.params());
        double[] samples = new double[SAMPLES];
        for (int k = 0; k < SAMPLES; k++) samples[k] = ns * (1 + 0.002 * k); // parking wakes a little late, never early
        return new Measurement(lease.sweepId(), lease.key(), c.index(), c.params(), Status.OK, Stats.of(samples, 1), 0.0,
                SensorReading.NONE, SensorReading.NONE, "", id, deviceClass, startedAt, finishedAt, order, lease.round())
                .ofImplementation(1);
    }

    /** An error ends the lease, as it does for a real agent; the agent asks again unless the link is gone. */
    private void failed(Throwable t) {
        errors++;
        if (firstError == null) firstError = id + ": " + t.getMessage();
        if (link.connected() && !stopping) vertx.setTimer(200, x -> pull());
        else stopped.tryComplete();
    }

    String id() { return id; }

    /** Read after {@link #stop()} completed: the context no longer adds to them. */
    List<Dispatch> dispatches() { return dispatches; }

    List<Candidate> candidates() { return candidates; }

    long firstLeaseNs() { return firstLeaseNs; }

    long ranDryNs() { return ranDryNs; }

    int errors() { return errors; }

    String firstError() { return firstError; }
}
