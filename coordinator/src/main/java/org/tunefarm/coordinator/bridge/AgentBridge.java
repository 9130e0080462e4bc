package org.tunefarm.coordinator.bridge;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import org.tunefarm.coordinator.credential.Credential;
import org.tunefarm.coordinator.credential.Credentials;
import org.tunefarm.coordinator.door.DoorConfig;
import org.tunefarm.coordinator.door.Refusals;

/**
 * The door agents come in by: a TCP server speaking the wire protocol of the Vert.x TCP event-bus
 * bridge (a 4-byte big-endian length, then a JSON frame {@code {type, address, headers, body,
 * replyAddress}}; replies are {@code message} frames to the reply address, failures {@code err}
 * frames), so any client of that bridge, in any language, works unchanged. Agents may send
 * requests to the four agent addresses and enroll, and each connection is bound to the agent id it
 * registered with ({@link AgentConnection}). An agent enrolls once with the farm token and gets a
 * credential of its own ({@link Credentials}); from then on only that credential registers its id,
 * and it rides on every frame in place of the farm token (compared in constant time). Connections
 * that have not registered yet are limited per address and in total, and so are failed
 * registrations per address ({@link Admission}). Replies go back on the socket that asked; nothing
 * else is delivered. The bridge listens on every event loop ({@link BridgeServer}), so its shared
 * state (the bound ids, the admission counts, the stats) is safe across threads, and each
 * connection keeps to the loop it was accepted on.
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
    private final Credentials credentials;
    private final Admission admission;
    private final Map<String, AgentConnection> bound = new ConcurrentHashMap<>();
    private final LongAdder accepted = new LongAdder();
    private final LongAdder registrations = new LongAdder();
    /** The listening instances, each on its own event loop. */
    private final List<BridgeServer> servers = new CopyOnWriteArrayList<>();
    private String deployment;

    /** @param credentials the farm's agent credentials, checked at registration and answering enrollments */
    public AgentBridge(Vertx vertx, String token, DoorConfig door, Refusals refusals, Credentials credentials) {
        if (token == null || token.isEmpty()) throw new IllegalArgumentException("token: the farm token must not be empty");
        this.vertx = vertx;
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.door = door;
        this.refusals = refusals;
        this.credentials = credentials;
        this.admission = new Admission(door.registration(), System::currentTimeMillis);
        credentials.onChange(this::credentialChanged);
    }

    /**
     * Listens with one {@link BridgeServer} per event loop (Vert.x's default number of them), so
     * agents' connections spread over the loops instead of sharing one.
     *
     * @param port the port, or 0 for one the system picks (shared by every instance)
     */
    public Future<AgentBridge> listen(String host, int port) {
        // Port 0 would give each instance a port of its own; -1 is Vert.x's "one random port, shared".
        NetServerOptions options = new NetServerOptions().setHost(host).setPort(port == 0 ? -1 : port)
                .setIdleTimeout((int) IDLE_TIMEOUT_S).setIdleTimeoutUnit(TimeUnit.SECONDS).setTcpNoDelay(true);
        if (door.tls() != null) door.tls().apply(options);
        return vertx.deployVerticle(() -> {
            BridgeServer s = new BridgeServer(options, this::accept);
            servers.add(s);
            return s;
        }, new DeploymentOptions().setInstances(VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE)).map(id -> {
            deployment = id;
            return this;
        });
    }

    private void accept(NetSocket socket) {
        accepted.increment();
        String address = socket.remoteAddress() == null ? "unknown" : socket.remoteAddress().hostAddress();
        String[] refused = admission.admit(address);
        if (refused != null) {
            refusals.refused("bridge", "closed/" + refused[0], socket.remoteAddress(), refused[1]);
            socket.close();
            return;
        }
        new AgentConnection(this, socket, address).start();
    }

    public int actualPort() {
        return servers.get(0).actualPort();
    }

    Vertx vertx() { return vertx; }

    byte[] token() { return token; }

    DoorConfig door() { return door; }

    Refusals refusals() { return refusals; }

    Credentials credentials() { return credentials; }

    Admission admission() { return admission; }

    /**
     * An agent registered on a connection. A board that rebooted or lost its network comes back on
     * a new connection before the old one times out: the newest wins and the old one is closed, so
     * one agent id is served by one connection at a time. Only the holder of the id's credential
     * (or, for an id that never enrolled, of the farm token) gets this far.
     */
    void bind(String agentId, AgentConnection c) {
        registrations.increment();
        AgentConnection old = bound.put(agentId, c);
        if (old != null && old != c) old.replaced("agent " + agentId + " registered again on a newer connection");
    }

    void unbind(String agentId, AgentConnection c) {
        bound.remove(agentId, c);
    }

    /** A credential changed somewhere in the farm: a connection it no longer admits is closed now. */
    private void credentialChanged(Credential c) {
        AgentConnection conn = bound.get(c.agentId());
        if (conn != null) conn.recheck(c);
    }

    /** Agents with a live, registered connection to this coordinator. */
    public int connectedAgents() {
        return bound.size();
    }

    /**
     * What this bridge has seen since it started: {@code connections} accepted, {@code registrations}
     * that succeeded, {@code open} registered connections now, {@code unregistered} connections now.
     * In a fault-free run each agent connects and registers once.
     */
    public Map<String, Long> stats() {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("connections", accepted.sum());
        out.put("registrations", registrations.sum());
        out.put("open", (long) bound.size());
        out.put("unregistered", (long) admission.unregistered());
        return out;
    }

    public Future<Void> close() {
        return deployment == null ? Future.succeededFuture() : vertx.undeploy(deployment);
    }
}
