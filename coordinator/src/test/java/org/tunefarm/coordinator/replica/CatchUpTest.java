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

    @Test void logsThatDifferFromTheStartAreReadWhole() throws Exception {
        try (RecordLog theirs = new RecordLog(dir.resolve("there/records.jsonl"));
             RecordLog mine = new RecordLog(dir.resolve("here/records.jsonl"))) {
            List<Measurement> batch = new ArrayList<>();
            for (long i = 0; i < 2500; i++) batch.add(ReconcileTest.m(i, "agent-there", 7_000));
            theirs.append(batch);
            // The same records but the first, in another order: no byte range is shared.
            mine.append(List.of(batch.get(1), batch.get(0)));
            mine.append(batch.subList(2, 2500));
            await(vertx.deployVerticle(new ReplicaVerticle("there", theirs, new SweepLog(dir.resolve("there/sweeps.jsonl")))));
            AtomicInteger pages = countPages("there");
            nodes.add("there");
            CatchUp copies = new CatchUp(vertx, "here", () -> nodes, mine, new SweepLog(dir.resolve("here/sweeps.jsonl")));
            assertEquals(0L, await(copies.from("there")));
            assertEquals(2, pages.get(), "every page read, none new");
            assertEquals(2500, mine.count());
        }
    }

    /** Counts the reads of record pages (not of digests) that reach the node's replica. */
    private AtomicInteger countPages(String node) {
        AtomicInteger pages = new AtomicInteger();
        vertx.eventBus().addInboundInterceptor(ctx -> {
            if (ctx.message().address().equals(ReplicaVerticle.readAddress(node)) && ctx.message().body() instanceof JsonObject j
                    && !j.containsKey(ReplicaVerticle.DIGESTS)) pages.incrementAndGet();
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
