package org.tunefarm.coordinator.replica;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.tunefarm.coordinator.store.LogBytes;

/**
 * Serves this coordinator's record log as one stream of bytes to a peer that starts with an empty
 * disk ({@link LogSeed}). The peer asks over the event bus, the channel between coordinators, and
 * gets a ticket: where to connect, a one-time token, and the length it will get (the durable length
 * then, a line's end). It connects, sends the token, and reads that many bytes, which the kernel
 * sends from the page cache ({@code sendfile}).
 *
 * <p>Why not pages over the event bus: each byte was copied some ten times between the two logs
 * (the page read, its encoding, the socket buffers, the decoding, the write), and on a 2-core
 * machine a gigabyte took a quarter of a minute; a history is ten of them.
 */
public final class LogStreams implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LogStreams.class.getName());
    /** How long a ticket may wait for its connection. */
    static final long TICKET_MS = 30_000;
    /** A stream that moves no byte for this long is cut: the other side is gone or cut off. */
    static final long STALL_MS = 15_000;
    static final int TOKEN_BYTES = 16;

    private final String host;
    private final LogBytes log;
    private final MessageConsumer<JsonObject> consumer;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Ticket> tickets = new ConcurrentHashMap<>();
    private ServerSocketChannel server;

    private record Ticket(long end, long expires) {}

    /** Where a node hands out tickets to its log's stream. */
    public static String address(String nodeId) {
        return "tunefarm.replica." + nodeId + ".stream";
    }

    /** @param host the address this coordinator's peers reach it at (its event bus's) */
    public LogStreams(Vertx vertx, String nodeId, String host, LogBytes log) {
        this.host = host;
        this.log = log;
        this.consumer = vertx.eventBus().consumer(address(nodeId), this::onAsk);
    }

    private void onAsk(Message<JsonObject> m) {
        try {
            int port = listening();
            byte[] t = new byte[TOKEN_BYTES];
            random.nextBytes(t);
            String token = HexFormat.of().formatHex(t);
            long now = System.currentTimeMillis();
            tickets.values().removeIf(x -> x.expires() < now);
            long end = log.length();
            tickets.put(token, new Ticket(end, now + TICKET_MS));
            m.reply(new JsonObject().put("host", host).put("port", port).put("token", token).put("end", end));
        } catch (IOException e) {
            m.fail(500, "cannot serve the record log as a stream: " + e.getMessage());
        }
    }

    /** Binds the stream's socket on the first ask (most coordinators never serve one), and starts taking connections. */
    private synchronized int listening() throws IOException {
        if (server == null) {
            server = ServerSocketChannel.open().bind(new InetSocketAddress(host, 0));
            Thread.ofPlatform().daemon().name("record-log-streams").start(this::accept);
        }
        return ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    private void accept() {
        while (server.isOpen()) {
            try {
                SocketChannel c = server.accept();
                Thread.ofPlatform().daemon().name("record-log-stream " + c.getRemoteAddress()).start(() -> serve(c));
            } catch (IOException e) {
                if (server.isOpen()) LOG.log(Level.WARNING, "record log streams: accept failed", e);
            }
        }
    }

    private void serve(SocketChannel c) {
        try (c; Stall stall = new Stall(c, STALL_MS)) {
            ByteBuffer asked = ByteBuffer.allocate(TOKEN_BYTES * 2 + 1);
            while (asked.hasRemaining() && c.read(asked) >= 0) stall.moved();
            String token = new String(asked.array(), 0, asked.position(), StandardCharsets.US_ASCII).trim();
            Ticket t = tickets.remove(token);
            if (t == null || t.expires() < System.currentTimeMillis()) {
                LOG.warning("record log streams: refused a connection from " + c.getRemoteAddress() + " without a valid ticket");
                return;
            }
            for (long at = 0; at < t.end(); ) {
                at += log.transferTo(at, t.end(), c);
                stall.moved();
            }
        } catch (IOException e) {
            LOG.info("record log streams: a stream ended early: " + e.getMessage());
        }
    }

    @Override public synchronized void close() throws IOException {
        consumer.unregister();
        if (server != null) server.close();
    }
}
