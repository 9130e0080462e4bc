package org.tunefarm.coordinator.install;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.file.Path;
import java.util.function.IntSupplier;

/**
 * The routes that hand a board its agent. They need no token: the script and the jar hold no
 * secret (the jar is the agent anyone can build, the script only this farm's address and bridge
 * port, which a board must know anyway), and a board that had to present the read token to fetch
 * them would need a second secret. The farm token, which lets an agent in, never travels here.
 */
public final class AgentInstall {
    static final String SCRIPT = "/install/agent.sh";
    static final String JAR = "/install/tunefarm-agent.jar";
    static final String SHA256 = JAR + ".sha256";
    /** What a Host header may hold to be written into the script: a name or an IPv4 address. */
    private static final String HOST = "[A-Za-z0-9.-]{1,253}";

    private final Vertx vertx;
    private final IntSupplier bridgePort;
    private final boolean tls;
    private final AgentJar jar;
    private final InstallerScript script = InstallerScript.load();

    /**
     * @param bridgePort the agent bridge's port, written into the script
     * @param tls        whether this farm serves TLS (bridge and REST alike)
     * @param agentJar   the jar to serve, or null to {@linkplain AgentJar#locate() find it}
     */
    public AgentInstall(Vertx vertx, IntSupplier bridgePort, boolean tls, Path agentJar) {
        this.vertx = vertx;
        this.bridgePort = bridgePort;
        this.tls = tls;
        this.jar = agentJar != null ? AgentJar.at(agentJar) : AgentJar.locate();
    }

    /** Adds the install routes (and their 405s) to the REST router. */
    public void routes(Router router) {
        router.get(SCRIPT).handler(this::script);
        router.get(JAR).handler(this::jar);
        router.get(SHA256).handler(this::sha256);
        for (String path : new String[] {SCRIPT, JAR, SHA256}) {
            router.route(path).handler(ctx -> {
                ctx.response().putHeader("Allow", "GET");
                error(ctx, 405, "method", ctx.request().method() + " is not allowed on " + path + " (allowed: GET)");
            });
        }
    }

    private void script(RoutingContext ctx) {
        HostAndPort authority = ctx.request().authority();
        if (authority == null || !authority.host().matches(HOST)) {
            error(ctx, 400, "Host", "the installer is written for the address it was fetched from: send a Host header with a host name or IPv4 address");
            return;
        }
        boolean https = ctx.request().isSSL();
        int port = authority.port();
        String farm = (https ? "https://" : "http://") + authority.host() + (port > 0 ? ":" + port : "");
        ctx.response().putHeader("Content-Type", "text/x-shellscript; charset=utf-8")
                .putHeader("Cache-Control", "no-store")
                .end(script.render(farm, bridgePort.getAsInt(), tls));
    }

    private void jar(RoutingContext ctx) {
        var file = jar.file();
        if (file.isEmpty()) {
            absent(ctx);
            return;
        }
        ctx.response().putHeader("Content-Type", "application/java-archive")
                .putHeader("Content-Disposition", "attachment; filename=\"tunefarm-agent.jar\"")
                .sendFile(file.get().toString())
                .onFailure(e -> { if (!ctx.response().headWritten()) ctx.fail(e); });
    }

    private void sha256(RoutingContext ctx) {
        if (jar.file().isEmpty()) {
            absent(ctx);
            return;
        }
        // Hashing some megabytes is blocking work: off the event loop.
        vertx.executeBlocking(jar::sha256, false).onSuccess(hex -> ctx.response()
                        .putHeader("Content-Type", "text/plain; charset=utf-8").end(hex + "  tunefarm-agent.jar\n"))
                .onFailure(ctx::fail);
    }

    private void absent(RoutingContext ctx) {
        error(ctx, 404, "agentJar", "this coordinator has no agent jar to serve (looked for " + jar.lookedFor()
                + "): start it with ./tunefarm, or with -D" + AgentJar.PROPERTY + "=FILE");
    }

    private static void error(RoutingContext ctx, int status, String field, String message) {
        if (ctx.response().ended()) return;
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", message).put("field", field).put("status", status).encode());
    }
}
