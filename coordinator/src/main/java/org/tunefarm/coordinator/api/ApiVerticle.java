package org.tunefarm.coordinator.api;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.FarmId;
import org.tunefarm.coordinator.audit.Audit;
import org.tunefarm.coordinator.credential.Credentials;
import org.tunefarm.coordinator.dashboard.Watch;
import org.tunefarm.coordinator.door.Refusals;
import org.tunefarm.coordinator.install.AgentInstall;
import org.tunefarm.coordinator.lease.AgentInfo;
import org.tunefarm.coordinator.lease.FarmVerticle;
import org.tunefarm.coordinator.sweep.SpecException;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.coordinator.table.ClassProfiles;
import org.tunefarm.coordinator.table.TableCsv;
import org.tunefarm.coordinator.table.TableService;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.KernelCatalog;
import org.tunefarm.protocol.BuildVersion;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.table.BestKernelTable;
import org.tunefarm.table.TableDocument;
import org.tunefarm.table.TableEntry;

/**
 * The REST API. Reads come from the cluster maps, so any coordinator answers for the whole farm;
 * a new sweep is validated here and handed to the local farm verticle. Every error is JSON
 * {@code {error, field, status}} naming the field at fault, and anything the client sent wrong
 * (a malformed or oversized body, an unknown route, a wrong method, a missing token, a request
 * line or header the HTTP decoder rejects) gets a 4xx, never a 500. Who may read and write is
 * {@link Access}'s business; every refusal is counted in {@link Refusals}. The dashboard, its
 * live feed, {@code /metrics} and the OpenAPI document are {@link Watch}'s routes.
 */
public final class ApiVerticle extends VerticleBase {
    private static final Logger LOG = Logger.getLogger(ApiVerticle.class.getName());
    /** Routing-context key for the message of an error response, so the refusal log can say why. */
    private static final String REFUSAL = "tunefarm.refusal";

    private final CoordinatorConfig config;
    private final Access access;
    private final Refusals refusals;
    private final java.util.function.BooleanSupplier leading;
    private final java.util.function.Supplier<JsonObject> replica;
    private final Audit audit;
    private final Credentials credentials;
    private final java.util.function.Supplier<java.util.Map<String, Long>> bridgeStats;
    private final Watch watch;
    private final FarmId farmId;
    private HttpServer server;
    private Router router;

    /**
     * @param leading     whether this coordinator dispatches, shown by /api/health
     * @param replica     the state of this coordinator's copy of the records, shown by /api/health
     * @param audit       where admin actions are written down
     * @param credentials the agents' credentials, for enroll, revoke and list
     * @param bridgeStats this coordinator's bridge connection counts, shown by /api/health
     * @param watch       the dashboard, live feed, metrics and OpenAPI routes
     * @param farmId      the farm's id, which the table document carries
     */
    public ApiVerticle(CoordinatorConfig config, Refusals refusals, java.util.function.BooleanSupplier leading,
                       java.util.function.Supplier<JsonObject> replica, Audit audit,
                       Credentials credentials, java.util.function.Supplier<java.util.Map<String, Long>> bridgeStats, Watch watch,
                       FarmId farmId) {
        this.config = config;
        this.access = new Access(config);
        this.refusals = refusals;
        this.leading = leading;
        this.replica = replica;
        this.audit = audit;
        this.credentials = credentials;
        this.bridgeStats = bridgeStats;
        this.watch = watch;
        this.farmId = farmId;
    }

    @Override public Future<?> start() {
        router = Router.router(vertx);
        router.route().handler(this::countRefusals);
        router.get("/api/health").handler(this::health);
        router.get("/api/agents").handler(access::requireReader).handler(ctx -> list(ctx, FarmVerticle.AGENTS_MAP));
        router.get("/api/sweeps").handler(access::requireReader).handler(ctx -> list(ctx, FarmVerticle.SWEEPS_MAP));
        // The admin check comes before the body is read: a stranger cannot make us buffer 256 KB.
        router.post("/api/sweeps").handler(access::requireAdmin);
        router.post("/api/sweeps").handler(BodyHandler.create().setBodyLimit(SweepSpecReader.MAX_BYTES).setHandleFileUploads(false))
                .handler(this::submit);
        router.get("/api/sweeps/:id").handler(access::requireReader).handler(this::sweep);
        SweepLifecycleRoutes.mount(router, access, vertx, audit);
        router.get("/api/table").handler(access::requireReader).handler(this::table);
        methods(router, "/api/health", "GET");
        methods(router, "/api/agents", "GET");
        methods(router, "/api/sweeps", "GET, POST");
        methods(router, "/api/sweeps/:id", "GET");
        methods(router, "/api/table", "GET");
        new AgentRoutes(vertx, access, credentials).mount(router);
        new ImportRoutes(vertx, access, audit).mount(router);
        new AgentInstall(vertx, config::bridgePort, config.door().tls() != null, null).routes(router);
        watch.mount(vertx, router, access::requireReader, !config.door().readToken().isEmpty());
        router.route().handler(ctx -> error(ctx, 404, "path", "no such endpoint: " + clip(ctx.request().path())));
        router.route().failureHandler(this::failure);
        HttpServerOptions options = new HttpServerOptions().setHost(config.httpHost()).setPort(config.httpPort());
        if (config.door().tls() != null) config.door().tls().apply(options);
        server = vertx.createHttpServer(options);
        server.invalidRequestHandler(this::invalid);
        return server.requestHandler(router).listen();
    }

    public int actualPort() {
        return server.actualPort();
    }

    /** The routes served, in order (the API document's test compares them with the document). */
    List<io.vertx.ext.web.Route> routes() {
        return router.getRoutes();
    }

    /** A known path asked with a method it does not serve. */
    private static void methods(Router router, String path, String allowed) {
        router.route(path).handler(ctx -> {
            ctx.response().putHeader("Allow", allowed);
            error(ctx, 405, "method", ctx.request().method() + " is not allowed on " + path + " (allowed: " + allowed + ")");
        });
    }

    private void countRefusals(RoutingContext ctx) {
        ctx.addHeadersEndHandler(v -> {
            int status = ctx.response().getStatusCode();
            if (status >= 400 && status < 500) {
                String why = ctx.get(REFUSAL);
                refusals.refused("rest", String.valueOf(status), ctx.request().remoteAddress(),
                        ctx.request().method() + " " + clip(ctx.request().path()) + (why != null ? ": " + why : ""));
            }
        });
        ctx.next();
    }

    /** The HTTP decoder refused the request (a request line or headers too long, bad syntax). */
    private void invalid(HttpServerRequest request) {
        Throwable cause = request.decoderResult() != null ? request.decoderResult().cause() : null;
        int status = cause instanceof io.netty.handler.codec.TooLongFrameException t
                ? (t.getClass().getSimpleName().contains("Header") ? 431 : 414) : 400;
        String message = status == 414 ? "the request line is too long" : status == 431 ? "the request headers are too large" : "the request is not valid HTTP";
        refusals.refused("rest", String.valueOf(status), request.remoteAddress(), message);
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").putHeader("Connection", "close")
                .end(new JsonObject().put("error", message).put("field", "request").put("status", status).encode());
    }

    private void health(RoutingContext ctx) {
        Future<Integer> agents = vertx.sharedData().<String, String>getAsyncMap(FarmVerticle.AGENTS_MAP).compose(AsyncMap::size);
        Future<Long> repeats = vertx.sharedData().getCounter(FarmVerticle.REPEATS_COUNTER).compose(c -> c.get());
        Future.all(agents, repeats).onSuccess(x -> ctx.json(new JsonObject().put("status", "ok").put("leader", leading.getAsBoolean())
                        .put("agents", agents.result()).put("repeats", repeats.result()).put("protocol", Protocol.VERSION)
                        .put("quarantined", vertx.sharedData().getLocalMap(org.tunefarm.coordinator.store.Quarantine.COUNTS).getOrDefault("lines", 0))
                        .put("bridge", new JsonObject(new java.util.LinkedHashMap<>(bridgeStats.get())))
                        .put("protocols", new JsonArray(Protocol.ACCEPTED)).put("version", BuildVersion.current())
                        .mergeIn(replica.get())))
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
        String body = ctx.body().asString(StandardCharsets.UTF_8.name());
        // Checking a spec walks its spaces (seconds for a large one on a busy board): off the event loop.
        kernels().compose(kernels -> vertx.executeBlocking(() -> SweepSpecReader.read(body, kernels), false)).onComplete(read -> {
            if (read.failed()) {
                if (read.cause() instanceof SpecException e) {
                    error(ctx, 400, e.field(), e.getMessage());
                } else if (read.cause() instanceof RuntimeException e) {
                    // A reader bug, but the body caused it: the client hears 400, we hear about it loudly.
                    refusals.refused("rest", "unexpected", ctx.request().remoteAddress(), String.valueOf(e));
                    LOG.log(Level.SEVERE, "the sweep spec reader failed on a request body", e);
                    error(ctx, 400, "body", "the sweep spec could not be read");
                } else {
                    ctx.fail(read.cause());
                }
                return;
            }
            SweepSpec spec = read.result();
            vertx.eventBus().<JsonObject>request(FarmVerticle.SUBMIT, new JsonObject(Protocol.write(spec))).compose(reply -> {
                String id = reply.body().getString("id");
                return vertx.executeBlocking(() -> {
                    audit.record("sweep.start", access.who(ctx), java.util.Map.of("sweepId", id, "name", String.valueOf(spec.name()), "kernel", String.valueOf(spec.kernel())));
                    return reply;
                });
            }).onSuccess(reply -> {
                ctx.response().setStatusCode(201).putHeader("Location", "/api/sweeps/" + reply.body().getString("id"));
                ctx.json(reply.body());
            }).onFailure(ctx::fail);
        });
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

    /** The table document ({@link TableDocument}), filtered, as JSON (the default) or CSV ({@link TableCsv}). */
    private void table(RoutingContext ctx) {
        String format = ctx.queryParams().get("format");
        if (format != null && !format.equals("json") && !format.equals("csv")) {
            error(ctx, 400, "format", "format must be json or csv, not '" + clip(format) + "'");
            return;
        }
        String deviceClass = ctx.queryParams().get("deviceClass");
        String op = ctx.queryParams().get("op");
        String shape = ctx.queryParams().get("shape");
        Future.all(new TableService(vertx).cluster(), kernels(), new ClassProfiles(vertx).all(), farmId.current()).onSuccess(all -> {
            BestKernelTable t = all.resultAt(0);
            KernelCatalog kernels = all.resultAt(1);
            java.util.Map<String, DeviceProfile> profiles = all.resultAt(2);
            List<TableEntry> es = t.entries(e -> (deviceClass == null || e.deviceClass().equals(deviceClass))
                    && (op == null || e.kernel().op().equals(op))
                    && (shape == null || shapeMatches(e, shape, kernels)));
            TableDocument document = TableDocument.of(all.resultAt(3), System.currentTimeMillis(), es, profiles);
            if ("csv".equals(format)) {
                ctx.response().putHeader("Content-Type", "text/csv; charset=utf-8");
                ctx.end(TableCsv.write(Protocol.JSON.valueToTree(document)));
            } else {
                ctx.response().putHeader("Content-Type", "application/json");
                ctx.end(Protocol.write(document));
            }
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

    private static String clip(String s) {
        return s == null ? "" : s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    /** Answers a JSON error {@code {error, field, status}}, and notes why for the refusal log. */
    public static void error(RoutingContext ctx, int status, String field, String message) {
        if (ctx.response().ended()) return;
        ctx.put(REFUSAL, clip(field + ": " + message));
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", message).put("field", field).put("status", status).encode());
    }
}
