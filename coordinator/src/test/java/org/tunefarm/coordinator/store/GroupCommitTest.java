package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.measure.Measurement;

/**
 * The record log's group commit on a real file: one fsync covers every append queued while the
 * previous one ran, no append is answered before the fsync that covers it has returned, and the
 * log keeps the order of the calls.
 */
class GroupCommitTest {
    @TempDir Path dir;

    /** A record as an agent reports it, stamped with its kernel family's implementation. */
    static Measurement stamped(long index) {
        return RecordLogTest.m(index).ofImplementation(1);
    }

    private Path file() {
        return dir.resolve("data/records.jsonl");
    }

    private static List<Long> indices(RecordLog log) throws IOException {
        List<Long> out = new ArrayList<>();
        log.replay(m -> out.add(m.index()));
        return out;
    }

    @Test void noAppendIsAnsweredWhileTheFsyncThatCoversItIsHeldAndOneFsyncCoversEveryAppendQueuedMeanwhile() throws Exception {
        CountDownLatch forcing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger forces = new AtomicInteger();
        // Holds the first force of the log, as a slow disk would, until the test lets it go.
        Runnable beforeForce = () -> {
            if (forces.incrementAndGet() != 1) return;
            forcing.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        try (RecordLog log = new RecordLog(file(), beforeForce)) {
            CompletableFuture<List<Measurement>> first = log.appendAsync(List.of(stamped(0)));
            assertTrue(forcing.await(10, TimeUnit.SECONDS), "the writer reached the first force");
            List<CompletableFuture<List<Measurement>>> later = new ArrayList<>();
            for (long i = 1; i <= 20; i++) later.add(log.appendAsync(List.of(stamped(i))));
            // What each answer saw of the log's fsyncs when it came.
            List<Long> fsyncsAtAnswer = Collections.synchronizedList(new ArrayList<>());
            CompletableFuture<Void> firstSeen = first.thenAccept(x -> fsyncsAtAnswer.add(log.fsyncs()));
            List<CompletableFuture<Void>> laterSeen = later.stream().map(f -> f.thenAccept(x -> fsyncsAtAnswer.add(log.fsyncs()))).toList();

            assertFalse(first.isDone(), "the record whose fsync is held is not answered");
            assertTrue(later.stream().noneMatch(CompletableFuture::isDone), "nor is anything queued behind it");
            assertEquals(0, log.fsyncs());

            release.countDown();
            firstSeen.get(10, TimeUnit.SECONDS);
            CompletableFuture.allOf(laterSeen.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            assertEquals(List.of(stamped(0)), first.get());
            for (int i = 0; i < later.size(); i++) assertEquals(List.of(stamped(i + 1)), later.get(i).get());
            assertEquals(2, log.fsyncs(), "the 20 appends queued during the first fsync took one more");
            assertEquals(1L, fsyncsAtAnswer.get(0), "the first answer came after its fsync");
            assertTrue(fsyncsAtAnswer.subList(1, fsyncsAtAnswer.size()).stream().allMatch(n -> n == 2), "the others after theirs: " + fsyncsAtAnswer);
        }
        try (RecordLog log = new RecordLog(file())) {
            List<Long> expected = new ArrayList<>();
            for (long i = 0; i <= 20; i++) expected.add(i);
            assertEquals(expected, indices(log), "in the order of the calls");
        }
    }

    @Test void concurrentAppendsAreEachStoredOnceInEachCallersOrder() throws Exception {
        int threads = 8;
        int appends = 150;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (RecordLog log = new RecordLog(file())) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int k = 0; k < appends; k++) {
                        // Each call sends its record and, as a retried report would, the one before it again.
                        List<Measurement> batch = new ArrayList<>();
                        if (k > 0) batch.add(KilledAppender.record(thread, k - 1));
                        batch.add(KilledAppender.record(thread, k));
                        assertEquals(List.of(KilledAppender.record(thread, k)), log.append(batch), "only the new one is fresh");
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) f.get(60, TimeUnit.SECONDS);
            assertEquals(threads * appends, log.count());
            assertTrue(log.fsyncs() <= threads * appends, "never more than one fsync an append: " + log.fsyncs());
        } finally {
            pool.shutdownNow();
        }
        try (RecordLog log = new RecordLog(file())) {
            assertEquals(threads * appends, log.count());
            KilledAppender.assertEachThreadInOrder(log, threads, new long[threads]);
        }
    }

    @Test void anAppendAfterCloseFailsRatherThanWaitingForever() throws Exception {
        RecordLog log = new RecordLog(file());
        log.close();
        CompletableFuture<List<Measurement>> late = log.appendAsync(List.of(stamped(1)));
        assertTrue(late.isCompletedExceptionally());
    }
}
