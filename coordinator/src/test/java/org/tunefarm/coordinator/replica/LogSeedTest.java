package org.tunefarm.coordinator.replica;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.store.RecordLog;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.measure.Measurement;

/**
 * A coordinator with an empty disk takes a real peer's log (its own record log, served through a
 * real socket on loopback) byte for byte, and opens it with every record; anything short of a whole
 * copy leaves its log as it was.
 */
class LogSeedTest {
    @TempDir Path dir;
    final Vertx vertx = Vertx.vertx();

    @AfterEach void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static <T> T await(io.vertx.core.Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    /** A peer "there" with {@code n} records (some 3 MB for 5,000: several reads of the stream) and one sweep. */
    private RecordLog peer(int n, boolean streams) throws Exception {
        RecordLog theirs = new RecordLog(dir.resolve("there/records.jsonl"));
        List<Measurement> batch = new ArrayList<>();
        for (long i = 0; i < n; i++) batch.add(ReconcileTest.m(i, "agent-there", 7_000));
        theirs.append(batch);
        SweepLog sweeps = new SweepLog(dir.resolve("there/sweeps.jsonl"));
        sweeps.append(new SweepLog.Entry("sw-split", 1_000, SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\n")));
        await(vertx.deployVerticle(new ReplicaVerticle("there", theirs, sweeps)));
        if (streams) new LogStreams(vertx, "there", "127.0.0.1", theirs.bytes());
        return theirs;
    }

    @Test void anEmptyLogTakesThePeersLogByteForByteAndOpensEveryRecord() throws Exception {
        try (RecordLog theirs = peer(5_000, true)) {
            Path mine = dir.resolve("here/records.jsonl");
            Files.createDirectories(mine.getParent());
            Files.write(dir.resolve("here/records.jsonl.incoming"), "left by a start that died mid-copy".getBytes(StandardCharsets.UTF_8));
            SweepLog sweeps = new SweepLog(dir.resolve("here/sweeps.jsonl"));
            LogSeed.Seeded seeded = LogSeed.copy(vertx, "here", List.of("here", "there"), mine, sweeps);
            assertNotNull(seeded);
            assertEquals("there", seeded.peer());
            assertEquals(theirs.bytes().length(), seeded.length());
            assertArrayEquals(Files.readAllBytes(dir.resolve("there/records.jsonl")), Files.readAllBytes(mine));
            assertFalse(Files.exists(dir.resolve("here/records.jsonl.incoming")));
            assertEquals(List.of("sw-split"), sweeps.read().stream().map(SweepLog.Entry::id).toList());
            try (RecordLog opened = new RecordLog(mine)) {
                assertEquals(5_000, opened.count());
                assertTrue(opened.contains(ReconcileTest.m(4_999, "agent-there", 7_000).recordId()));
            }
        }
    }

    @Test void aPeerAsNewAsThisOneIsPassedOverForOneWithTheHistory() throws Exception {
        try (RecordLog theirs = peer(100, true); RecordLog fresh = new RecordLog(dir.resolve("new/records.jsonl"))) {
            new LogStreams(vertx, "new", "127.0.0.1", fresh.bytes());
            Path mine = dir.resolve("here/records.jsonl");
            LogSeed.Seeded seeded = LogSeed.copy(vertx, "here", List.of("here", "new", "there"), mine, new SweepLog(dir.resolve("here/sweeps.jsonl")));
            assertNotNull(seeded);
            assertEquals("there", seeded.peer());
            assertArrayEquals(Files.readAllBytes(dir.resolve("there/records.jsonl")), Files.readAllBytes(mine));
        }
    }

    /**
     * A peer that stops sending mid-stream (it died, or a partition cut it off, with the connection
     * left open): the stream is cut once it has not moved for {@link LogStreams#STALL_MS}, the part
     * copied is dropped, and the log stays empty for record-by-record catch-up.
     */
    @Test void aStreamThatStallsMidwayLeavesTheLogAsItWas() throws Exception {
        try (java.nio.channels.ServerSocketChannel silent = java.nio.channels.ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            int port = ((InetSocketAddress) silent.getLocalAddress()).getPort();
            vertx.eventBus().<JsonObject>consumer(LogStreams.address("stuck"),
                    m -> m.reply(new JsonObject().put("host", "127.0.0.1").put("port", port).put("token", "t").put("end", 1_000_000L)));
            Thread.ofPlatform().daemon().start(() -> {
                try (SocketChannel c = silent.accept()) {
                    c.write(ByteBuffer.wrap(new byte[300_000])); // a third of what the ticket said, then nothing
                    Thread.sleep(LogStreams.STALL_MS * 3);
                } catch (Exception ignored) {
                    // the copying side hung up
                }
            });
            Path mine = dir.resolve("here/records.jsonl");
            long began = System.nanoTime();
            assertNull(LogSeed.copy(vertx, "here", List.of("here", "stuck"), mine, new SweepLog(dir.resolve("here/sweeps.jsonl"))));
            assertTrue(System.nanoTime() - began < java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(LogStreams.STALL_MS * 2), "cut, not waited out");
            assertFalse(Files.exists(mine) && Files.size(mine) > 0);
            assertFalse(Files.exists(dir.resolve("here/records.jsonl.incoming")));
        }
    }

    @Test void aLogWithRecordsOfItsOwnIsNotSeeded() throws Exception {
        try (RecordLog theirs = peer(10, true)) {
            Path mine = dir.resolve("here/records.jsonl");
            try (RecordLog own = new RecordLog(mine)) {
                own.append(List.of(ReconcileTest.m(77, "agent-here", 9_000)));
            }
            byte[] before = Files.readAllBytes(mine);
            assertNull(LogSeed.copy(vertx, "here", List.of("here", "there"), mine, new SweepLog(dir.resolve("here/sweeps.jsonl"))));
            assertArrayEquals(before, Files.readAllBytes(mine));
        }
    }

    @Test void aPeerThatDoesNotStreamLeavesTheLogEmpty() throws Exception {
        try (RecordLog theirs = peer(10, false)) {
            Path mine = dir.resolve("here/records.jsonl");
            SweepLog sweeps = new SweepLog(dir.resolve("here/sweeps.jsonl"));
            assertNull(LogSeed.copy(vertx, "here", List.of("here", "there"), mine, sweeps));
            assertFalse(Files.exists(mine) && Files.size(mine) > 0);
            assertFalse(Files.exists(dir.resolve("here/records.jsonl.incoming")));
            assertTrue(sweeps.read().isEmpty(), "no sweeps without their records");
        }
    }

    @Test void theStreamServesOnlyAHolderOfATicketAndEachTicketOnce() throws Exception {
        try (RecordLog theirs = peer(10, true)) {
            JsonObject ticket = await(vertx.eventBus().<JsonObject>request(LogStreams.address("there"), new JsonObject())).body();
            assertEquals(theirs.bytes().length(), ticket.getLong("end"));
            assertEquals(0, read(ticket.getInteger("port"), "0".repeat(32)), "a made-up token gets nothing");
            assertEquals(ticket.getLong("end"), read(ticket.getInteger("port"), ticket.getString("token")));
            assertEquals(0, read(ticket.getInteger("port"), ticket.getString("token")), "a ticket is good for one stream");
        }
    }

    /** Bytes the stream sends for this token until it closes. */
    private static long read(int port, String token) throws Exception {
        try (SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
            c.write(ByteBuffer.wrap((token + "\n").getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer b = ByteBuffer.allocate(1 << 16);
            long n = 0;
            for (int k = c.read(b); k >= 0; k = c.read(b)) {
                n += k;
                b.clear();
            }
            return n;
        }
    }
}
