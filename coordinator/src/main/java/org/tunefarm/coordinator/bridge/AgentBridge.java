package org.tunefarm.coordinator.bridge;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServerOptions;
import io.vertx.ext.bridge.BridgeEventType;
import io.vertx.ext.bridge.BridgeOptions;
import io.vertx.ext.bridge.PermittedOptions;
import io.vertx.ext.eventbus.bridge.tcp.BridgeEvent;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.logging.Logger;
import org.tunefarm.protocol.Protocol;

/**
 * The door agents come in by: the Vert.x TCP event-bus bridge, letting agents send to the four
 * agent addresses only, and only with the farm token on every frame (compared in constant time).
 * Agents receive nothing they did not ask for: replies come back on the socket they asked on.
 */
public final class AgentBridge {
    private static final Logger LOG = Logger.getLogger(AgentBridge.class.getName());

    private final Vertx vertx;
    private final byte[] token;
    private TcpEventBusBridge bridge;

    public AgentBridge(Vertx vertx, String token) {
        this.vertx = vertx;
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    public Future<AgentBridge> listen(String host, int port) {
        BridgeOptions options = new BridgeOptions();
        for (String a : Protocol.AGENT_INBOUND) options.addInboundPermitted(new PermittedOptions().setAddress(a));
        NetServerOptions net = new NetServerOptions().setHost(host).setPort(port).setIdleTimeout(0);
        bridge = TcpEventBusBridge.create(vertx, options, net, this::guard);
        return bridge.listen(port, host).map(b -> this);
    }

    private void guard(BridgeEvent e) {
        BridgeEventType t = e.type();
        if (t == BridgeEventType.SEND || t == BridgeEventType.PUBLISH || t == BridgeEventType.REGISTER || t == BridgeEventType.UNREGISTER) {
            JsonObject raw = e.getRawMessage();
            JsonObject headers = raw == null ? null : raw.getJsonObject("headers");
            String given = headers == null ? null : headers.getString(Protocol.TOKEN_HEADER);
            if (given == null || !MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8))) {
                LOG.warning(() -> "refused a frame without a valid farm token from " + e.socket().remoteAddress());
                e.complete(false);
                return;
            }
            // The token stops here: consumers never see it.
            headers.remove(Protocol.TOKEN_HEADER);
            e.setRawMessage(raw);
        }
        e.complete(true);
    }

    public Future<Void> close() {
        return bridge == null ? Future.succeededFuture() : bridge.close();
    }
}
