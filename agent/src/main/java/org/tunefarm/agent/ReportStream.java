package org.tunefarm.agent;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.tunefarm.agent.link.BridgeClient;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Ack;

/**
 * A lease's results on their way to the farm, sent without making the measuring wait for the
 * farm's answer, which comes only once two coordinators have the records on disk (tens of
 * milliseconds, more than a short candidate takes): one report is out at a time, and what is
 * taken meanwhile goes together in the next, so a farm that answers slowly gets fewer, larger
 * reports rather than a board that waits. The farm's answer still rules: a refused report (the
 * lease expired, another coordinator leads) or a lost link stops the lease at once, as does an
 * answer that asks the agent to stop (its sweep was paused or cancelled): the measuring thread is
 * interrupted, and what it takes after that is not sent. The lease is reported done only after
 * every result was acknowledged.
 *
 * <p>A large farm also sets a pace ({@code Lease.reportEveryMs}): a report that carries results
 * goes out no sooner than that after the previous one, and what is taken meanwhile waits for it.
 * So 256 boards measuring 50 ms candidates send four results a report rather than one, and the
 * leader pays a report's fixed cost a quarter as often. The measuring never waits for the pace, and
 * once the batch has ended what waits goes at once.
 */
final class ReportStream {

    /** Sends one report of the lease and answers with the farm's acknowledgement. */
    interface Sender {
        Future<Ack> send(List<Measurement> measurements, boolean done);
    }

    /** Runs a task after a delay, off the measuring thread: where a report waits for its pace. */
    interface Delay {
        void after(long ms, Runnable task);
    }

    private final Sender sender;
    /** Where reports are encoded and sent: not the measuring thread, whose time between candidates is the farm's overhead. */
    private final Executor sendOn;
    private final Thread measuring;
    private final Delay delay;
    private final long everyNs;
    private final List<Measurement> waiting = new ArrayList<>();
    /** Whether a report is out, or due once the pace allows ({@link #paced}). */
    private boolean sending;
    /** A report is due after a delay: the pace did not allow it yet. */
    private boolean paced;
    /** When the last report with results went out (System.nanoTime); at first, a pace ago, so the first goes at once. */
    private long lastSentNs;
    /** Whether the measuring thread is still in the lease, so an interrupt is meant for it. */
    private boolean running = true;
    private Exception failure;
    private String stopped;
    /** Completed once nothing is out or waiting, after {@link #finish}. */
    private CompletableFuture<Void> drained;
    private long reports;

    /**
     * @param sendOn    runs the sending of a report (its encoding and write), so the measuring
     *                  thread only queues its result
     * @param delay     where a report that the pace holds back waits
     * @param everyMs   the least time between two reports with results ({@code Lease.reportEveryMs}); 0 for none
     * @param measuring the thread that measures the lease: interrupted when the farm stops it
     */
    ReportStream(Sender sender, Executor sendOn, Delay delay, long everyMs, Thread measuring) {
        this.sender = sender;
        this.sendOn = sendOn;
        this.delay = delay;
        this.everyNs = everyMs * 1_000_000L;
        this.lastSentNs = System.nanoTime() - everyNs;
        this.measuring = measuring;
    }

    /** Queues a result and has it sent if no report is out (once the pace allows); never waits for the farm, nor for the sending. */
    synchronized void add(Measurement m) {
        if (failure != null || stopped != null) return;
        waiting.add(m);
        if (sending) return;
        sending = true;
        sendWhenPaced(sendOn);
    }

    /** Sends what waits through {@code now} if the pace allows it, else after the delay it still asks for. */
    private void sendWhenPaced(Executor now) {
        long wait = running ? lastSentNs + everyNs - System.nanoTime() : 0;
        if (wait <= 0) {
            now.execute(this::sendWaiting);
            return;
        }
        paced = true;
        delay.after(Math.max(1, (wait + 999_999) / 1_000_000), this::pacedSend);
    }

    /** The pace allows the report held back now, unless the end of the batch sent it already. */
    private synchronized void pacedSend() {
        if (!paced) return;
        paced = false;
        sendWaiting();
    }

    /**
     * Called by the measuring thread once the batch has ended: waits until every result sent is
     * answered, then, unless the farm refused one or stopped the lease, reports the lease done.
     *
     * @return why the farm stopped the lease (null when it did not)
     * @throws Exception the refusal or lost link that ended it
     */
    String finish(long timeoutMs) throws Exception {
        CompletableFuture<Void> wait;
        synchronized (this) {
            running = false;
            drained = new CompletableFuture<>();
            if (paced) { // the batch is over: what the pace held back goes now
                paced = false;
                sendOn.execute(this::sendWaiting);
            }
            if (!sending) drained.complete(null);
            wait = drained;
        }
        Thread.interrupted(); // an interrupt this stream sent before the batch ended is spent
        try {
            wait.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new BridgeClient.FarmRefusal(504, "the farm did not answer the lease's reports within " + timeoutMs + " ms");
        }
        synchronized (this) {
            if (failure != null) throw failure;
            if (stopped != null) return stopped;
        }
        Ack ack;
        try {
            ack = sender.send(List.of(), true).toCompletionStage().toCompletableFuture().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
        if (!ack.ok()) throw new BridgeClient.FarmRefusal(400, "report refused: " + ack.message());
        return null;
    }

    /** How many reports carried results: fewer than the results when the farm answered slower than they were taken. */
    synchronized long reports() {
        return reports;
    }

    /** Sends what waits (never nothing: it is called only after a result was queued), as one report; {@link #sending} is already set. */
    private synchronized void sendWaiting() {
        List<Measurement> batch = List.copyOf(waiting);
        waiting.clear();
        reports++;
        lastSentNs = System.nanoTime();
        Future<Ack> f;
        try {
            f = sender.send(batch, false);
        } catch (RuntimeException e) {
            f = Future.failedFuture(e);
        }
        f.onComplete(this::answered);
    }

    private synchronized void answered(AsyncResult<Ack> r) {
        sending = false;
        if (r.failed()) {
            failure = r.cause() instanceof Exception e ? e : new RuntimeException(r.cause());
        } else if (!r.result().ok()) {
            failure = new BridgeClient.FarmRefusal(400, "report refused: " + r.result().message());
        } else if (r.result().stopLease()) {
            stopped = r.result().message();
        }
        if (failure != null || stopped != null) {
            waiting.clear();
            if (running) measuring.interrupt(); // stops the batch after the candidate it is on
        } else if (!waiting.isEmpty()) {
            sending = true; // on the link's thread, where the answer came: the measuring thread is not held
            sendWhenPaced(Runnable::run);
            return;
        }
        if (drained != null) drained.complete(null);
    }
}
