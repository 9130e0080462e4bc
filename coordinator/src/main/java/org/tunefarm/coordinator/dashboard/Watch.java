package org.tunefarm.coordinator.dashboard;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import io.vertx.micrometer.PrometheusScrapingHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;
import org.tunefarm.coordinator.api.ApiVerticle;
import org.tunefarm.coordinator.store.ObservedRecords;
import org.tunefarm.measure.Measurement;

/**
 * Watching the farm over HTTP: the dashboard page at {@code /} with its live feed, the reads only
 * the dashboard needs, Prometheus metrics at {@code /metrics} and the OpenAPI document. Every
 * coordinator serves all of it from the cluster maps and its own replica of the records.
 */
public final class Watch implements ObservedRecords.Observer {
    /** The OpenAPI document, on the class path and at this path over HTTP. */
    public static final String OPENAPI = "/api/openapi.yaml";
    static final String OPENAPI_RESOURCE = "/tunefarm-dashboard/openapi.yaml";
    /**
     * The page's files on the class path. Vert.x looks in the working directory before the class
     * path, so the name is one no operator's folder is likely to have.
     */
    static final String WEB_ROOT = "tunefarm-dashboard";

    private final PrometheusMeterRegistry meters;
    private final RecordTally tally = new RecordTally();
    private FarmView view;

    public Watch(PrometheusMeterRegistry meters) {
        this.meters = meters;
    }

    /**
     * A record read back from this coordinator's log as it is opened at start, in log order, before
     * any record arrives: it counts for totals and plots, not for the current rate.
     */
    public void opened(Measurement m) {
        tally.add(List.of(m), 0);
    }

    @Override public void appended(List<Measurement> fresh, long nanos) {
        tally.add(fresh, System.currentTimeMillis());
    }

    /** The farm as last read from the cluster maps (for the metrics). */
    public List<FarmView.AgentState> agents() {
        return view == null ? List.of() : view.agents();
    }

    /**
     * Adds the watch routes to the REST router, and starts the live feed on the caller's context.
     *
     * @param reader          the read-token check of the other REST reads
     * @param readsNeedToken  whether the farm has a read token (the page asks for it only then)
     */
    public void mount(Vertx vertx, Router router, Handler<RoutingContext> reader, boolean readsNeedToken) {
        view = new FarmView(vertx, tally);
        LiveFeed feed = new LiveFeed(view, tally);
        feed.start(vertx);
        // The page and its scripts hold no farm data, so they load without a token; the page then
        // asks for the read token when the farm has one, and sends it on every read.
        StaticHandler page = StaticHandler.create(WEB_ROOT).setIndexPage("index.html").setCachingEnabled(false);
        router.get("/").handler(page);
        router.get("/assets/*").handler(StaticHandler.create(WEB_ROOT + "/assets").setCachingEnabled(false));
        router.get("/vendor/uplot/*").handler(StaticHandler.create("META-INF/resources/webjars/uplot/" + webjarVersion("uplot") + "/dist"));
        router.get("/api/access").handler(ctx -> ctx.json(new JsonObject().put("readsNeedToken", readsNeedToken)));
        router.get("/api/feed").handler(reader).handler(feed::open);
        router.get("/api/sensors").handler(reader).handler(ctx -> ctx.json(tally.readings()));
        router.get("/api/sweeps/:id/points").handler(reader).handler(this::points);
        router.get("/metrics").handler(reader).handler(PrometheusScrapingHandler.create(meters));
        Buffer openapi = resource(OPENAPI_RESOURCE);
        router.get(OPENAPI).handler(ctx -> ctx.response().putHeader("Content-Type", "application/yaml").end(openapi));
        for (String path : List.of("/", "/api/access", "/api/feed", "/api/sensors", "/api/sweeps/:id/points", "/metrics", OPENAPI)) {
            router.route(path).handler(ctx -> {
                ctx.response().putHeader("Allow", "GET");
                ApiVerticle.error(ctx, 405, "method", ctx.request().method() + " is not allowed on " + path + " (allowed: GET)");
            });
        }
    }

    /** {@code GET /api/sweeps/{id}/points?deviceClass=&kernel=}: one search's records, oldest first. */
    private void points(RoutingContext ctx) {
        String deviceClass = ctx.queryParams().get("deviceClass");
        String kernel = ctx.queryParams().get("kernel");
        if (deviceClass == null || deviceClass.isEmpty()) {
            ApiVerticle.error(ctx, 400, "deviceClass", "the query parameter deviceClass is required");
        } else if (kernel == null || kernel.isEmpty()) {
            ApiVerticle.error(ctx, 400, "kernel", "the query parameter kernel is required (a search's kernel id, as in the sweep's searches)");
        } else {
            ctx.json(new JsonObject().put("sweep", ctx.pathParam("id")).put("deviceClass", deviceClass).put("kernel", kernel)
                    .put("points", tally.points(ctx.pathParam("id"), deviceClass, kernel)));
        }
    }

    /** A class-path resource, read once (never from the working directory). */
    static Buffer resource(String path) {
        try (InputStream in = Watch.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException(path + " is not on the class path");
            return Buffer.buffer(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The version of a webjar on the class path, so its files are found without writing it twice. */
    static String webjarVersion(String artifact) {
        String path = "/META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties";
        try (InputStream in = Watch.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("the " + artifact + " webjar is not on the class path (" + path + ")");
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
