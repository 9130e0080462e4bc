package org.tunefarm.coordinator.api;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.tunefarm.coordinator.lease.AgentInfo;
import org.tunefarm.coordinator.lease.FarmVerticle;
import org.tunefarm.coordinator.sweep.SpecException;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.coordinator.table.TableService;
import org.tunefarm.kernel.KernelCatalog;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.table.BestKernelTable;
import org.tunefarm.table.TableEntry;

/**
 * The REST API. Reads come from the cluster maps, so any coordinator answers for the whole farm;
 * a new sweep is validated here and handed to the local farm verticle. Every error is JSON with a
 * message naming the field, and a 4xx for anything the client sent wrong.
 */
public final class ApiVerticle extends VerticleBase {
    private static final Logger LOG = Logger.getLogger(ApiVerticle.class.getName());

    private final String host;
    private final int port;
    private final byte[] adminToken;
    private final java.util.function.BooleanSupplier leading;
    private HttpServer server;

    /** @param leading whether this coordinator dispatches, shown by /api/health */
    public ApiVerticle(String host, int port, String adminToken, java.util.function.BooleanSupplier leading) {
        this.host = host;
        this.port = port;
        this.leading = leading;
        this.adminToken = adminToken == null ? new byte[0] : adminToken.getBytes(StandardCharsets.UTF_8);
    }

    @Override public Future<?> start() {
        Router router = Router.router(vertx);
        router.route().handler(BodyHandler.create().setBodyLimit(SweepSpecReader.MAX_BYTES).setHandleFileUploads(false));
        router.get("/api/health").handler(this::health);
        router.get("/api/agents").handler(ctx -> list(ctx, FarmVerticle.AGENTS_MAP));
        router.get("/api/sweeps").handler(ctx -> list(ctx, FarmVerticle.SWEEPS_MAP));
        router.post("/api/sweeps").handler(this::submit);
        router.get("/api/sweeps/:id").handler(this::sweep);
        router.get("/api/table").handler(this::table);
        router.route("/api/*").handler(ctx -> error(ctx, 404, "path", "no such endpoint: " + ctx.request().method() + " " + ctx.request().path()));
        router.route().failureHandler(this::failure);
        server = vertx.createHttpServer();
        return server.requestHandler(router).listen(port, host);
    }

    public int actualPort() {
        return server.actualPort();
    }

    private void health(RoutingContext ctx) {
        vertx.sharedData().<String, String>getAsyncMap(FarmVerticle.AGENTS_MAP).compose(AsyncMap::size)
                .onSuccess(n -> ctx.json(new JsonObject().put("status", "ok").put("leader", leading.getAsBoolean()).put("agents", n).put("protocol", Protocol.VERSION)))
                .onFailure(ctx::fail);
    }

    private void list(RoutingContext ctx, String map) {
        vertx.sharedData().<String, String>getAsyncMap(map).compose(AsyncMap::values).onSuccess(vs -> {
            JsonArray a = new JsonArray();
            vs.stream().sorted().forEach(v -> a.add(new JsonObject(v)));
            ctx.json(a);
        }).onFailure(ctx::fail);
    }

    private void sweep(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        vertx.sharedData().<String, String>getAsyncMap(FarmVerticle.SWEEPS_MAP).compose(m -> m.get(id)).onSuccess(v -> {
            if (v == null) error(ctx, 404, "id", "no sweep with id '" + id + "'");
            else ctx.json(new JsonObject(v));
        }).onFailure(ctx::fail);
    }

    private void submit(RoutingContext ctx) {
        if (adminToken.length > 0) {
            String auth = ctx.request().getHeader("Authorization");
            String given = auth != null && auth.startsWith("Bearer ") ? auth.substring(7) : "";
            if (!MessageDigest.isEqual(adminToken, given.getBytes(StandardCharsets.UTF_8))) {
                error(ctx, 401, "Authorization", "writes need the admin token as 'Authorization: Bearer <token>'");
                return;
            }
        }
        String body = ctx.body().asString(StandardCharsets.UTF_8.name());
        kernels().onSuccess(kernels -> {
            SweepSpec spec;
            try {
                spec = SweepSpecReader.read(body, kernels);
            } catch (SpecException e) {
                error(ctx, 400, e.field(), e.getMessage());
                return;
            }
            hand(ctx, spec);
        }).onFailure(ctx::fail);
    }

    /**
     * The kernels a sweep may name now: the built-in families, then the command kernels declared
     * by live agents of the whole farm (the agents map), the earliest registration first.
     */
    private Future<KernelCatalog> kernels() {
        return vertx.sharedData().<String, String>getAsyncMap(FarmVerticle.AGENTS_MAP).compose(AsyncMap::values).map(vs -> {
            List<AgentInfo> agents = new ArrayList<>();
            for (String v : vs) {
                try {
                    AgentInfo a = Protocol.JSON.readValue(v, AgentInfo.class);
                    if (a.alive()) agents.add(a);
                } catch (java.io.IOException e) {
                    LOG.log(Level.WARNING, "unreadable agent entry in the cluster map", e);
                }
            }
            agents.sort(Comparator.comparingLong(AgentInfo::registeredAt).thenComparing(AgentInfo::agentId));
            return KernelCatalog.of(agents.stream().flatMap(a -> a.commandKernels().stream()).toList());
        });
    }

    private void hand(RoutingContext ctx, SweepSpec spec) {
        vertx.eventBus().<JsonObject>request(FarmVerticle.SUBMIT, new JsonObject(Protocol.write(spec))).onSuccess(reply -> {
            ctx.response().setStatusCode(201).putHeader("Location", "/api/sweeps/" + reply.body().getString("id"));
            ctx.json(reply.body());
        }).onFailure(ctx::fail);
    }

    private void table(RoutingContext ctx) {
        String deviceClass = ctx.queryParams().get("deviceClass");
        String op = ctx.queryParams().get("op");
        String shape = ctx.queryParams().get("shape");
        Future.all(new TableService(vertx).cluster(), kernels()).onSuccess(both -> {
            BestKernelTable t = both.resultAt(0);
            KernelCatalog kernels = both.resultAt(1);
            List<TableEntry> es = t.entries(e -> (deviceClass == null || e.deviceClass().equals(deviceClass))
                    && (op == null || e.kernel().op().equals(op))
                    && (shape == null || shapeMatches(e, shape, kernels)));
            ctx.response().putHeader("Content-Type", "application/json");
            ctx.end(Protocol.write(java.util.Map.of("schema", BestKernelTable.SCHEMA, "entries", es)));
        }).onFailure(ctx::fail);
    }

    /** A shape filter is written as {@code 512x512x512} (family order) or {@code M=512,N=512,K=512}. */
    private static boolean shapeMatches(TableEntry e, String shape, KernelCatalog kernels) {
        if (shape.contains("=")) {
            for (String part : shape.split(",")) {
                String[] kv = part.split("=", 2);
                if (kv.length != 2 || !kv[1].equals(String.valueOf(e.kernel().shape().get(kv[0].trim())))) return false;
            }
            return true;
        }
        var spec = kernels.find(e.kernel().op());
        return spec.isPresent() && e.kernel().shapeText(spec.get().dimensions()).equals(shape);
    }

    private void failure(RoutingContext ctx) {
        int code = ctx.statusCode();
        Throwable t = ctx.failure();
        if (code == 413) {
            error(ctx, 413, "body", "the request body is over " + SweepSpecReader.MAX_BYTES + " bytes");
        } else if (code >= 400 && code < 500) {
            error(ctx, code, "request", t != null && t.getMessage() != null ? t.getMessage() : "bad request");
        } else if (t instanceof io.vertx.core.eventbus.ReplyException re && re.failureCode() >= 400 && re.failureCode() < 500) {
            error(ctx, re.failureCode(), "body", re.getMessage());
        } else {
            LOG.log(Level.SEVERE, "request failed: " + ctx.request().path(), t);
            error(ctx, 500, "server", "internal error: " + (t != null ? t.getMessage() : "unknown"));
        }
    }

    static void error(RoutingContext ctx, int status, String field, String message) {
        if (ctx.response().ended()) return;
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", message).put("field", field).put("status", status).encode());
    }
}
