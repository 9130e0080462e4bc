package org.tunefarm.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.link.BridgeClient;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Ack;

class ReportStreamTest {

    /** The reports the stream sent, each with the promise the test answers for the farm. */
    private record Sent(List<Long> indexes, boolean done, Promise<Ack> answer) {}

    private final List<Sent> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ReportStream.Sender farm = (ms, done) -> {
        Promise<Ack> p = Promise.promise();
        sent.add(new Sent(ms.stream().map(Measurement::index).toList(), done, p));
        return p.future();
    };

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void resultsTakenWhileAReportIsOutGoTogetherInTheNextAndDoneComesLast() throws Exception {
        ReportStream s = unpaced(farm, Runnable::run);
        s.add(m(0));
        s.add(m(1)); // the farm has not answered: nothing waits for it, and nothing more is sent
        s.add(m(2));
        assertEquals(1, sent.size());
        assertEquals(List.of(0L), sent.get(0).indexes());
        sent.get(0).answer().complete(Ack.ok(1));
        assertEquals(2, sent.size(), "the answer sends what was taken meanwhile, in one report");
        assertEquals(List.of(1L, 2L), sent.get(1).indexes());
        assertFalse(sent.get(1).done());
        // The batch has ended: done is sent only once the last report is answered.
        Thread finisher = Thread.currentThread();
        Promise<Ack> last = sent.get(1).answer();
        java.util.concurrent.atomic.AtomicInteger sentWhileOut = new java.util.concurrent.atomic.AtomicInteger(-1);
        new Thread(() -> {
            org.awaitility.Awaitility.await().until(() -> finisher.getState() == Thread.State.TIMED_WAITING);
            sentWhileOut.set(sent.size());
            last.complete(Ack.ok(2));
        }).start();
        Thread answerDone = new Thread(() -> {
            org.awaitility.Awaitility.await().until(() -> sent.size() == 3);
            sent.get(2).answer().complete(Ack.ok(0));
        });
        answerDone.start();
        assertNull(s.finish(10_000), "the farm did not stop the lease");
        assertEquals(2, sentWhileOut.get(), "done is not sent while a report is out");
        assertEquals(3, sent.size());
        assertTrue(sent.get(2).done());
        assertEquals(List.of(), sent.get(2).indexes());
        assertEquals(2, s.reports());
        assertFalse(Thread.currentThread().isInterrupted());
    }

    /** The measuring thread only queues: the report is encoded and sent where the stream's executor runs it. */
    @Test
    void theMeasuringThreadQueuesAndTheSendingRunsElsewhere() throws Exception {
        List<Runnable> tasks = new java.util.ArrayList<>();
        List<Thread> sendingThreads = new java.util.concurrent.CopyOnWriteArrayList<>();
        ReportStream.Sender recording = (ms, done) -> {
            sendingThreads.add(Thread.currentThread());
            return farm.send(ms, done);
        };
        ReportStream s = unpaced(recording, tasks::add);
        s.add(m(0));
        s.add(m(1));
        assertEquals(0, sent.size(), "nothing is sent on the measuring thread");
        assertEquals(1, tasks.size(), "one sending is due, whatever was queued meanwhile");
        Thread link = new Thread(tasks.remove(0), "link");
        link.start();
        link.join();
        assertEquals(List.of(link), sendingThreads);
        assertEquals(List.of(0L, 1L), sent.get(0).indexes(), "results queued before the sending go in one report");
        s.add(m(2));
        assertEquals(0, tasks.size(), "a report is out: the next waits for its answer");
        sent.get(0).answer().complete(Ack.ok(2));
        assertEquals(List.of(2L), sent.get(1).indexes());
        sent.get(1).answer().complete(Ack.ok(1));
        Thread answerDone = new Thread(() -> {
            org.awaitility.Awaitility.await().until(() -> sent.size() == 3);
            sent.get(2).answer().complete(Ack.ok(0));
        });
        answerDone.start();
        assertNull(s.finish(10_000));
        assertTrue(sent.get(2).done());
    }

    @Test
    void aFarmThatStopsTheLeaseInterruptsTheMeasuringAndGetsNothingMore() throws Exception {
        ReportStream s = unpaced(farm, Runnable::run);
        s.add(m(0));
        s.add(m(1));
        sent.get(0).answer().complete(Ack.stop(1, "sweep paused"));
        assertTrue(Thread.interrupted(), "the batch is stopped at once");
        assertEquals(1, sent.size(), "what was taken after the farm's stop is not sent");
        s.add(m(2));
        assertEquals(1, sent.size());
        assertEquals("sweep paused", s.finish(10_000));
        assertEquals(1, sent.size(), "a stopped lease is not reported done");
    }

    @Test
    void aRefusedReportEndsTheLeaseWithTheRefusal() {
        ReportStream s = unpaced(farm, Runnable::run);
        s.add(m(0));
        s.add(m(1));
        sent.get(0).answer().fail(new BridgeClient.FarmRefusal(409, "lease: expired"));
        assertTrue(Thread.interrupted());
        BridgeClient.FarmRefusal r = assertThrows(BridgeClient.FarmRefusal.class, () -> s.finish(10_000));
        assertTrue(r.getMessage().contains("expired"), r.getMessage());
        assertEquals(1, sent.size());
    }

    @Test
    void aNotOkAnswerIsARefusalToo() {
        ReportStream s = unpaced(farm, Runnable::run);
        s.add(m(0));
        sent.get(0).answer().complete(Ack.refused("index: 0 is not in this lease"));
        BridgeClient.FarmRefusal r = assertThrows(BridgeClient.FarmRefusal.class, () -> s.finish(10_000));
        assertTrue(r.getMessage().contains("index: 0"), r.getMessage());
    }

    /** At a pace, results taken soon after a report wait for the next one, and the end of the batch does not wait. */
    @Test
    void aPacedStreamHoldsResultsBackUntilThePaceAllowsButNotPastTheBatch() throws Exception {
        List<Long> delays = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Runnable> due = new java.util.concurrent.CopyOnWriteArrayList<>();
        ReportStream s = new ReportStream(farm, Runnable::run, (ms, task) -> {
            delays.add(ms);
            due.add(task);
        }, 60_000, Thread.currentThread());
        s.add(m(0));
        assertEquals(1, sent.size(), "the first result goes at once: nothing was sent before");
        sent.get(0).answer().complete(Ack.ok(1));
        s.add(m(1));
        s.add(m(2));
        assertEquals(1, sent.size(), "within the pace: held back");
        assertEquals(1, due.size(), "one report is due, whatever is taken meanwhile");
        assertTrue(delays.get(0) > 50_000 && delays.get(0) <= 60_000, "waits out the rest of the pace: " + delays);
        due.get(0).run();
        assertEquals(List.of(1L, 2L), sent.get(1).indexes());
        sent.get(1).answer().complete(Ack.ok(2));

        s.add(m(3));
        assertEquals(2, due.size());
        // The batch ends while result 3 waits for the pace: it goes at once, then done.
        Thread answer = new Thread(() -> {
            org.awaitility.Awaitility.await().until(() -> sent.size() == 3);
            sent.get(2).answer().complete(Ack.ok(1));
            org.awaitility.Awaitility.await().until(() -> sent.size() == 4);
            sent.get(3).answer().complete(Ack.ok(0));
        });
        answer.start();
        assertNull(s.finish(10_000));
        answer.join();
        assertEquals(List.of(3L), sent.get(2).indexes());
        assertTrue(sent.get(3).done());
        due.get(1).run(); // the pace's timer fires late: the report it was for is gone already
        assertEquals(4, sent.size());
    }

    /** A stream without a pace (a lease from a small farm): it never asks for a delay. */
    private static ReportStream unpaced(ReportStream.Sender sender, java.util.concurrent.Executor sendOn) {
        return new ReportStream(sender, sendOn, (ms, task) -> { throw new AssertionError("an unpaced stream waits for nothing"); }, 0,
                Thread.currentThread());
    }

    private static Measurement m(long index) {
        return new Measurement("sweep", new KernelKey("sleep", Map.of("unitUs", 100), "fp32"), index, Map.of("a", 5), Status.OK, null, null,
                null, null, "", "agent", "class", 0, 0, 0);
    }
}
