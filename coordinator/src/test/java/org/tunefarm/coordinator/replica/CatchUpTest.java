package org.tunefarm.coordinator.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.store.RecordLog;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.measure.Measurement;

/**
 * Catch-up against a real peer replica (its own record log, answering on the event bus): it copies
 * by offset, asks a page again when the first ask goes unanswered, and says it is not caught up
 * while a peer cannot be read.
 */
class CatchUpTest {
    @TempDir Path dir;
    final Vertx vertx = Vertx.vertx();
    final List<String> nodes = new ArrayList<>(List.of("here"));

    @AfterEach void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static <T> T await(io.vertx.core.Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    @Test void aPeerThatCannotBeReadIsReportedAndThenCopiedIncrementally() throws Exception {
        try (RecordLog mine = new RecordLog(dir.resolve("here/records.jsonl"));
             RecordLog theirs = new RecordLog(dir.resolve("there/records.jsonl"))) {
            CatchUp copies = new CatchUp(vertx, "here", () -> nodes, mine, new SweepLog(dir.resolve("here/sweeps.jsonl")));
            assertTrue(copies.caughtUp(), "alone, there is nothing to copy");

            nodes.add("there"); // a member joined whose replica does not answer yet
            assertThrowsFuture(copies.fromAll());
            assertFalse(copies.caughtUp());
            JsonObject health = copies.health();
            assertFalse(health.getBoolean("caughtUp"));
            assertTrue(health.getJsonObject("catchUpFailures").containsKey("there"), health.encode());

            List<Measurement> batch = new ArrayList<>();
            for (long i = 0; i < 4100; i++) batch.add(ReconcileTest.m(i, "agent-there", 7_000));
            theirs.append(batch);
            await(vertx.deployVerticle(new ReplicaVerticle("there", theirs, new SweepLog(dir.resolve("there/sweeps.jsonl")))));
            assertEquals(4100L, await(copies.fromAll()), "three pages");
            assertTrue(copies.caughtUp());
            assertFalse(copies.health().containsKey("catchUpFailures"));
            assertEquals(4100, mine.count());

            // Later records come from where the last page ended: only they are read.
            theirs.append(List.of(ReconcileTest.m(5000, "agent-there", 7_000)));
            assertEquals(1L, await(copies.fromAll()));
            assertTrue(mine.contains(ReconcileTest.m(5000, "agent-there", 7_000).recordId()));
            assertEquals(4101, mine.count());
        }
    }

    @Test void aPageThatGoesUnansweredIsAskedAgain() throws Exception {
        try (RecordLog mine = new RecordLog(dir.resolve("here/records.jsonl"));
             RecordLog theirs = new RecordLog(dir.resolve("there/records.jsonl"))) {
            theirs.append(List.of(ReconcileTest.m(1, "agent-there", 7_000), ReconcileTest.m(2, "agent-there", 7_000)));
            ReplicaVerticle peer = new ReplicaVerticle("slow", theirs, new SweepLog(dir.resolve("there/sweeps.jsonl")));
            await(vertx.deployVerticle(peer));
            // The first ask is swallowed, as by a peer too busy to answer in time; the second reaches the replica.
            AtomicInteger asks = new AtomicInteger();
            vertx.eventBus().addInboundInterceptor(ctx -> {
                if (ctx.message().address().equals(ReplicaVerticle.readAddress("slow")) && asks.incrementAndGet() == 1) return;
                ctx.next();
            });
            nodes.add("slow");
            CatchUp copies = new CatchUp(vertx, "here", () -> nodes, mine, new SweepLog(dir.resolve("here/sweeps.jsonl")));
            assertEquals(2L, await(copies.from("slow")));
            assertEquals(2, asks.get());
            assertTrue(copies.caughtUp());
        }
    }

    @Test void whatBothLogsHoldAtTheSameOffsetsIsNotReadAgain() throws Exception {
        Path theirsFile = dir.resolve("there/records.jsonl");
        try (RecordLog theirs = new RecordLog(theirsFile)) {
            List<Measurement> batch = new ArrayList<>();
            for (long i = 0; i < 4100; i++) batch.add(ReconcileTest.m(i, "agent-there", 7_000));
            theirs.append(batch);
            // This coordinator's log is a copy of the peer's (its replica, or a copy taken at start) ...
            java.nio.file.Files.createDirectories(dir.resolve("here"));
            java.nio.file.Files.copy(theirsFile, dir.resolve("here/records.jsonl"));
            // ... and the peer went on.
            theirs.append(List.of(ReconcileTest.m(5000, "agent-there", 7_000), ReconcileTest.m(5001, "agent-there", 7_000)));
            try (RecordLog mine = new RecordLog(dir.resolve("here/records.jsonl"))) {
                await(vertx.deployVerticle(new ReplicaVerticle("there", theirs, new SweepLog(dir.resolve("there/sweeps.jsonl")))));
                AtomicInteger pages = countPages("there");
                nodes.add("there");
                CatchUp copies = new CatchUp(vertx, "here", () -> nodes, mine, new SweepLog(dir.resolve("here/sweeps.jsonl")));
                assertEquals(2L, await(copies.from("there")));
                assertEquals(1, pages.get(), "only the page after the shared bytes: 4,100 records would be three");
                assertEquals(4102, mine.count());
            }
        }
    }

    @Test void logsThatHoldTheSameRecordsInAnotherOrderAreNotReadAgain() throws Exception {
        try (RecordLog theirs = new RecordLog(dir.resolve("there/records.jsonl"));
             RecordLog mine = new RecordLog(dir.resolve("here/records.jsonl"))) {
            List<Measurement> batch = records(0, 2500);
            theirs.append(batch);
            // The same records but the first two swapped: no byte range from the start is shared,
            // but past the second line both logs hold the same lines.
            mine.append(List.of(batch.get(1), batch.get(0)));
            mine.append(batch.subList(2, 2500));
            CatchUp copies = copiesFromThere(theirs, mine);
            AtomicInteger pages = countPages("there");
            assertEquals(0L, await(copies.from("there")));
            assertEquals(1, pages.get(), "only the (empty) page after the lines both hold: all 2,500 would be two");
            assertEquals(2500, mine.count());
        }
    }

    @Test void logsThatHoldOtherRecordsAreReadWhole() throws Exception {
        try (RecordLog theirs = new RecordLog(dir.resolve("there/records.jsonl"));
             RecordLog mine = new RecordLog(dir.resolve("here/records.jsonl"))) {
            theirs.append(records(0, 2500));
            mine.append(records(10_000, 2500)); // other candidates: other record ids
            CatchUp copies = copiesFromThere(theirs, mine);
            AtomicInteger pages = countPages("there");
            assertEquals(2500L, await(copies.from("there")));
            assertEquals(2, pages.get(), "every page read");
            assertEquals(5000, mine.count());
        }
    }

    @Test void aLaterRoundReadsOnlyPastTheLinesBothLogsHold() throws Exception {
        try (RecordLog theirs = new RecordLog(dir.resolve("there/records.jsonl"));
             RecordLog mine = new RecordLog(dir.resolve("here/records.jsonl"))) {
            CatchUp copies = copiesFromThere(theirs, mine);
            assertEquals(0L, await(copies.from("there")), "a first round, with both logs empty, sets the cursor");
            AtomicInteger pages = countPages("there");

            // Both logs take the same records in the same order (the leader's own and its replica's
            // copy), and the peer one more it has not copied yet.
            List<Measurement> batch = records(0, 4100);
            theirs.append(batch);
            mine.append(batch);
            theirs.append(List.of(ReconcileTest.m(5000, "agent-there", 7_000)));
            assertEquals(1L, await(copies.from("there")));
            assertEquals(1, pages.get(), "only the page after the shared bytes: 4,101 records would be three");
            assertEquals(4101, mine.count());

            // This log ran ahead of the peer's (a leader reading its replica): nothing to read but the shared part's end.
            pages.set(0);
            mine.append(List.of(ReconcileTest.m(6000, "agent-there", 7_000), ReconcileTest.m(6001, "agent-there", 7_000)));
            theirs.append(List.of(ReconcileTest.m(6000, "agent-there", 7_000)));
            assertEquals(0L, await(copies.from("there")));
            assertEquals(1, pages.get());
            assertTrue(copies.caughtUp());

            // The same records, but two reports landed in the other order here (as copies do): the lines
            // agree past them, and the one record the peer has and this log lacks is still read.
            pages.set(0);
            List<Measurement> a = records(7000, 2100), b = records(9500, 2100);
            theirs.append(List.of(ReconcileTest.m(6001, "agent-there", 7_000)));
            theirs.append(a);
            theirs.append(b);
            Measurement lacking = ReconcileTest.m(12_000, "agent-there", 7_000);
            theirs.append(List.of(lacking));
            mine.append(b);
            mine.append(a);
            assertEquals(1L, await(copies.from("there")));
            assertTrue(mine.contains(lacking.recordId()));
            assertEquals(1, pages.get(), "4,201 records would be three pages");
        }
    }

    @Test void aCursorInsideOneOfThisLogsLinesComparesFromWhereBothLogsLastAgreed() throws Exception {
        try (RecordLog theirs = new RecordLog(dir.resolve("there/records.jsonl"));
             RecordLog mine = new RecordLog(dir.resolve("here/records.jsonl"))) {
            CatchUp copies = copiesFromThere(theirs, mine);
            assertEquals(0L, await(copies.from("there")));
            // A leader reading its replica: this log holds a record (7) the replica has not got yet, ahead of one (8)
            // the replica has; so the replica's end, the cursor after this round, is inside one of this log's lines.
            Measurement shortLine = ReconcileTest.m(8, "a", 7_000), longLine = ReconcileTest.m(7, "agent-with-a-longer-name", 7_000);
            theirs.append(List.of(ReconcileTest.m(1, "agent-there", 7_000), shortLine));
            mine.append(List.of(ReconcileTest.m(1, "agent-there", 7_000), longLine, shortLine));
            assertEquals(0L, await(copies.from("there")));
            // The copy arrives, and both logs take the same 2,100 records.
            theirs.append(List.of(longLine));
            List<Measurement> batch = records(100, 2100);
            theirs.append(batch);
            mine.append(batch);
            AtomicInteger pages = countPages("there");
            assertEquals(0L, await(copies.from("there")));
            assertEquals(1, pages.get(), "compared from the last common line start: 2,101 records would be two pages");
            assertTrue(copies.caughtUp());
        }
    }

    @Test void lineBoundsAndSumsBeginOnlyAtALineStart() throws Exception {
        try (RecordLog mine = new RecordLog(dir.resolve("here/records.jsonl"))) {
            mine.append(List.of(ReconcileTest.m(1, "agent-here", 7_000), ReconcileTest.m(2, "agent-here", 7_000)));
            long end = mine.bytes().length();
            long[] whole = mine.bytes().lineBounds(0, 1, Integer.MAX_VALUE);
            assertEquals(2, whole.length, "two lines: two bounds, the last at the log's end");
            assertEquals(end, whole[1]);
            assertEquals(List.of(end), java.util.Arrays.stream(mine.bytes().lineBounds(whole[0], 1, Integer.MAX_VALUE)).boxed().toList(), "from the second line's start");
            assertEquals(0, mine.bytes().lineBounds(whole[0] - 5, 1, Integer.MAX_VALUE).length, "inside the first line");
            assertEquals(0, mine.bytes().lineBounds(end, 1, Integer.MAX_VALUE).length, "at the end");
            assertEquals(List.of(whole[0]), java.util.Arrays.stream(mine.bytes().lineBounds(0, 1, 1)).boxed().toList(), "at most one");
            Long[] sums = mine.bytes().lineSums(0, new long[] {whole[0] - 5, whole[0], end, end + 1});
            assertEquals(3, sums.length, "none past the durable end");
            assertEquals(null, sums[0], "inside a line: no sum");
            assertTrue(sums[1] != null && sums[2] != null && !sums[1].equals(sums[2]));
            try (RecordLog swapped = new RecordLog(dir.resolve("swapped/records.jsonl"))) {
                swapped.append(List.of(ReconcileTest.m(2, "agent-here", 7_000), ReconcileTest.m(1, "agent-here", 7_000)));
                assertEquals(sums[2], swapped.bytes().lineSums(0, new long[] {end})[0], "the same lines in the other order: the same sum");
            }
        }
    }

    /** A peer, "there", whose replica answers for {@code theirs}, and this coordinator's copies of it into {@code mine}. */
    private CatchUp copiesFromThere(RecordLog theirs, RecordLog mine) throws Exception {
        await(vertx.deployVerticle(new ReplicaVerticle("there", theirs, new SweepLog(dir.resolve("there/sweeps.jsonl")))));
        nodes.add("there");
        return new CatchUp(vertx, "here", () -> nodes, mine, new SweepLog(dir.resolve("here/sweeps.jsonl")));
    }

    /** {@code n} records of consecutive candidates from {@code first}. */
    private static List<Measurement> records(long first, int n) {
        List<Measurement> out = new ArrayList<>();
        for (long i = 0; i < n; i++) out.add(ReconcileTest.m(first + i, "agent-there", 7_000));
        return out;
    }

    /** Counts the reads of record pages (not of digests or line sums) that reach the node's replica. */
    private AtomicInteger countPages(String node) {
        AtomicInteger pages = new AtomicInteger();
        vertx.eventBus().addInboundInterceptor(ctx -> {
            if (ctx.message().address().equals(ReplicaVerticle.readAddress(node)) && ctx.message().body() instanceof JsonObject j
                    && !j.containsKey(ReplicaVerticle.DIGESTS) && !j.containsKey(ReplicaVerticle.LINE_SUMS)) pages.incrementAndGet();
            ctx.next();
        });
        return pages;
    }

    private static void assertThrowsFuture(io.vertx.core.Future<?> f) throws Exception {
        try {
            await(f);
        } catch (java.util.concurrent.ExecutionException expected) {
            return;
        }
        throw new AssertionError("expected the catch-up to fail");
    }
}
