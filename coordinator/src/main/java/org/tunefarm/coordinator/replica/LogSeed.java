package org.tunefarm.coordinator.replica;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
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
import java.util.logging.Logger;
import org.tunefarm.coordinator.store.IncomingLog;
import org.tunefarm.coordinator.store.SweepLog;

/**
 * A coordinator that starts with an empty record log (a new one, or one whose disk was lost) takes
 * a peer's log as it lies, byte for byte ({@link LogStreams}), before it opens its own, and then
 * the peer's sweeps.
 * Opening it then reads every line once, on every core, as any start does (the ids, the tally and
 * the leader's state in one pass, an unreadable line quarantined), and {@link CatchUp} goes on
 * from where the copy ended. Why not copy record by record, as catch-up does: each page was parsed,
 * checked for every id and appended through the group commit with its derived state, which cost a
 * long history minutes (a million records in half a minute, on 2 cores) where a start reads the
 * same log in seconds; a log with records of its own must still merge record by record.
 */
public final class LogSeed {
    private static final Logger LOG = Logger.getLogger(LogSeed.class.getName());

    /** The copy: whose log it was, and the offset in it up to which this log now holds it. */
    public record Seeded(String peer, long length) {}

    private LogSeed() {}

    /**
     * Copies the first peer's log that can be read to its end into {@code records}, if that is
     * empty, and then its sweeps into {@code sweeps}; blocks (a start has nothing else to do).
     *
     * @return what was copied, or null when nothing was: the log was not empty, there was no peer,
     * every peer's log was empty too, or none could be read (a copy is dropped, and catch-up copies
     * record by record)
     */
    public static Seeded copy(Vertx vertx, String self, List<String> nodes, Path records, SweepLog sweeps) throws Exception {
        IncomingLog.discardLeftover(records);
        if (Files.exists(records) && Files.size(records) > 0) return null;
        List<String> peers = new ArrayList<>(nodes);
        peers.remove(self);
        for (String peer : peers) {
            long began = System.nanoTime();
            long length;
            SweepCopy theirs;
            try (IncomingLog in = new IncomingLog(records)) {
                length = copy(vertx, peer, in);
                if (length == 0) continue; // a peer as new as this one: another may hold the history
                theirs = sweeps(vertx, peer);
                in.commit();
            } catch (Exception e) {
                LOG.info("could not copy coordinator " + peer + "'s record log (" + e.getMessage() + "); catching up record by record instead");
                continue;
            }
            theirs.appendTo(sweeps);
            LOG.info(String.format("copied coordinator %s's record log, %d bytes, in %.1f s", peer, length, (System.nanoTime() - began) / 1e9));
            return new Seeded(peer, length);
        }
        return null;
    }

    /**
     * Copies the peer's log up to the durable length its ticket names (a line's end; what it
     * appends later, catch-up reads), as one stream ({@link LogStreams}).
     */
    private static long copy(Vertx vertx, String peer, IncomingLog in) throws Exception {
        JsonObject ticket = await(vertx.eventBus().<JsonObject>request(LogStreams.address(peer), new JsonObject(),
                new DeliveryOptions().setSendTimeout(CatchUp.PAGE_TIMEOUT_MS)).map(Message::body));
        long end = ticket.getLong("end");
        if (end == 0) return 0;
        try (SocketChannel c = SocketChannel.open(); Stall stall = new Stall(c, LogStreams.STALL_MS)) {
            c.connect(new InetSocketAddress(ticket.getString("host"), ticket.getInteger("port")));
            ByteBuffer token = ByteBuffer.wrap((ticket.getString("token") + "\n").getBytes(StandardCharsets.US_ASCII));
            while (token.hasRemaining()) c.write(token);
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
            while (in.written() < end) {
                buf.clear().limit((int) Math.min(buf.capacity(), end - in.written()));
                if (c.read(buf) < 0) break;
                stall.moved();
                buf.flip();
                in.append(buf);
            }
            if (in.written() < end) {
                throw new java.io.IOException("the stream ended at " + in.written() + " of " + end + " bytes" + (stall.stalled() ? " (stalled)" : ""));
            }
        } catch (java.nio.channels.ClosedChannelException e) {
            throw new java.io.IOException("the stream stalled at " + in.written() + " of " + end + " bytes");
        }
        return end;
    }

    /** The peer's sweeps and operators' changes, read after its records, so every copied record's sweep is among them. */
    private static SweepCopy sweeps(Vertx vertx, String peer) throws Exception {
        JsonObject ask = new JsonObject().put("from", 0).put("max", 1).put("sweeps", true);
        JsonObject reply = await(vertx.eventBus().<JsonObject>request(ReplicaVerticle.readAddress(peer), ask,
                new DeliveryOptions().setSendTimeout(CatchUp.PAGE_TIMEOUT_MS)).map(Message::body));
        return SweepCopy.of(reply.getJsonArray("sweeps"), reply.getJsonArray("controls"));
    }

    private static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(CatchUp.PAGE_TIMEOUT_MS * (CatchUp.ATTEMPTS + 1), TimeUnit.MILLISECONDS);
    }
}
