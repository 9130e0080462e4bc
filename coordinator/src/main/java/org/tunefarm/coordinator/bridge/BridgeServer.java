package org.tunefarm.coordinator.bridge;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;

/**
 * One listening instance of the agent bridge. The bridge deploys one per event loop, all on the
 * same port: Vert.x shares the port between them and hands each new connection to the next
 * instance in turn, so an agent's frames are read, checked and answered on that instance's loop.
 * A single server would put every connection on one loop, and that loop is also the one some
 * verticle runs on (the farm's, at worst), where each pull would wait behind every frame of every
 * agent's report.
 */
final class BridgeServer extends VerticleBase {
    private final NetServerOptions options;
    private final Handler<NetSocket> accept;
    private NetServer server;

    BridgeServer(NetServerOptions options, Handler<NetSocket> accept) {
        this.options = options;
        this.accept = accept;
    }

    @Override
    public Future<?> start() {
        server = vertx.createNetServer(options).connectHandler(accept);
        return server.listen();
    }

    int actualPort() {
        return server.actualPort();
    }
}
