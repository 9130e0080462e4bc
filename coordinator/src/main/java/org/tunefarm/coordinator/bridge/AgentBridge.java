package org.tunefarm.coordinator.bridge;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.tunefarm.coordinator.door.DoorConfig;
import org.tunefarm.coordinator.door.Refusals;

/**
 * The door agents come in by: a TCP server speaking the wire protocol of the Vert.x TCP event-bus
 * bridge (a 4-byte big-endian length, then a JSON frame {@code {type, address, headers, body,
 * replyAddress}}; replies are {@code message} frames to the reply address, failures {@code err}
 * frames), so any client of that bridge, in any language, works unchanged. Agents may send
 * requests to the four agent addresses only, with the farm token on every frame (compared in
 * constant time), and each connection is bound to the agent id it registered with
 * ({@link AgentConnection}). Replies go back on the socket that asked; nothing else is delivered.
 *
 * <p><b>Why not the Vert.x bridge itself.</b> Its frame parser has no maximum frame size: a
 * length prefix that lies makes it buffer without bound, and a frame that never completes holds
 * memory for ever; its bridge-event hook sees only parsed frames, so neither can be fixed from
 * outside. Putting a guard in front of it (a second server that checks frames and forwards them
 * to the bridge on a loopback port) would parse every frame twice, leave that inner port open to
 * every local process, and still need per-connection state for the agent binding. The protocol is
 * small enough that serving it directly is less code than guarding it: a few hundred lines, with a
 * hard frame limit, a frame timer, strict JSON, no client-chosen delivery options, and the
 * binding, all in one place.
 */
public final class AgentBridge {
    static final Logger LOG = Logger.getLogger(AgentBridge.class.getName());
    /** Agents heartbeat every second or so; a connection silent this long is gone. */
    static final long IDLE_TIMEOUT_S = 600;

    private final Vertx vertx;
    private final byte[] token;
    private final DoorConfig door;
    private final Refusals refusals;
    private final Map<String, AgentConnection> bound = new ConcurrentHashMap<>();
    private NetServer server;

    public AgentBridge(Vertx vertx, String token, DoorConfig door, Refusals refusals) {
        if (token == null || token.isEmpty()) throw new IllegalArgumentException("token: the farm token must not be empty");
        this.vertx = vertx;
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.door = door;
        this.refusals = refusals;
    }

    public Future<AgentBridge> listen(String host, int port) {
        NetServerOptions options = new NetServerOptions().setHost(host).setPort(port)
                .setIdleTimeout((int) IDLE_TIMEOUT_S).setIdleTimeoutUnit(TimeUnit.SECONDS).setTcpNoDelay(true);
        if (door.tls() != null) door.tls().apply(options);
        server = vertx.createNetServer(options);
        server.connectHandler(socket -> new AgentConnection(this, socket).start());
        return server.listen().map(s -> this);
    }

    public int actualPort() {
        return server.actualPort();
    }

    Vertx vertx() { return vertx; }

    byte[] token() { return token; }

    DoorConfig door() { return door; }

    Refusals refusals() { return refusals; }

    /**
     * An agent registered on a connection. A board that rebooted or lost its network comes back on
     * a new connection before the old one times out: the newest wins and the old one is closed, so
     * one agent id is served by one connection at a time.
     */
    void bind(String agentId, AgentConnection c) {
        AgentConnection old = bound.put(agentId, c);
        if (old != null && old != c) old.replaced("agent " + agentId + " registered again on a newer connection");
    }

    void unbind(String agentId, AgentConnection c) {
        bound.remove(agentId, c);
    }

    /** Agents with a live, registered connection to this coordinator. */
    public int connectedAgents() {
        return bound.size();
    }

    public Future<Void> close() {
        return server == null ? Future.succeededFuture() : server.close();
    }
}
