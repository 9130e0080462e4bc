package org.tunefarm.coordinator.api;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.tunefarm.coordinator.audit.Audit;
import org.tunefarm.coordinator.exchange.KernelTunerImport;
import org.tunefarm.coordinator.lease.FarmVerticle;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Protocol;

/**
 * {@code POST /api/records/import?format=kernel-tuner&deviceClass=NAME} (admin): a Kernel Tuner
 * cache file in the body becomes records of that device class ({@link KernelTunerImport}),
 * appended by the leader through the same durable path as agents' reports (here and on a peer
 * before the answer) and folded into the table. The answer counts the configurations:
 * {@code imported} (new to the record log), {@code duplicates} (already stored: the same file
 * imported before) and {@code refused}, with the first reasons. A body that is not a cache is a
 * 400 naming the field, and nothing of it is stored.
 */
final class ImportRoutes {
    static final String PATH = "/api/records/import";
    /** Kernel Tuner caches of whole spaces run to tens of MB (17,956 configurations of a GEMM: 16.5 MB). */
    static final int MAX_BODY = 64 * 1024 * 1024;
    private static final Logger LOG = Logger.getLogger(ImportRoutes.class.getName());
    private static final int REASONS_SHOWN = 100;
    /** The leader appends and fsyncs a whole file's records, and waits for a peer's copy. */
    private static final long LEADER_TIMEOUT_MS = 120_000;

    private final Vertx vertx;
    private final Access access;
    private final Audit audit;

    ImportRoutes(Vertx vertx, Access access, Audit audit) {
        this.vertx = vertx;
        this.access = access;
        this.audit = audit;
    }

    void mount(Router router) {
        // The admin check comes before the body is read: a stranger cannot make us buffer 64 MB.
        router.post(PATH).handler(access::requireAdmin);
        router.post(PATH).handler(BodyHandler.create().setBodyLimit(MAX_BODY).setHandleFileUploads(false)).handler(this::importRecords)
                .failureHandler(ctx -> {
                    if (ctx.statusCode() == 413) ApiVerticle.error(ctx, 413, "body", "the cache file is over " + MAX_BODY + " bytes");
                    else ctx.next();
                });
        router.route(PATH).handler(ctx -> {
            ctx.response().putHeader("Allow", "POST");
            ApiVerticle.error(ctx, 405, "method", ctx.request().method() + " is not allowed on " + PATH + " (allowed: POST)");
        });
    }

    private void importRecords(RoutingContext ctx) {
        String format = ctx.queryParams().get("format");
        if (format != null && !format.equals("kernel-tuner")) {
            ApiVerticle.error(ctx, 400, "format", "unknown format '" + format + "': expected kernel-tuner");
            return;
        }
        String deviceClass = ctx.queryParams().get("deviceClass");
        byte[] body = ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
        vertx.executeBlocking(() -> KernelTunerImport.read(body, deviceClass, System.currentTimeMillis()), false).onComplete(read -> {
            if (read.failed()) {
                if (read.cause() instanceof KernelTunerImport.Invalid e) {
                    ApiVerticle.error(ctx, 400, e.field(), e.getMessage());
                } else if (read.cause() instanceof RuntimeException e) {
                    // A reader bug, but the body caused it: the client hears 400, we hear about it loudly.
                    LOG.log(Level.SEVERE, "the Kernel Tuner import failed on a request body", e);
                    ApiVerticle.error(ctx, 400, "body", "the cache file could not be read");
                } else {
                    ctx.fail(read.cause());
                }
                return;
            }
            store(ctx, read.result());
        });
    }

    private void store(RoutingContext ctx, KernelTunerImport.Batch b) {
        JsonArray records = new JsonArray();
        for (Measurement m : b.measurements()) records.add(new JsonObject(Protocol.write(m)));
        var stored = records.isEmpty() ? io.vertx.core.Future.succeededFuture(0)
                : vertx.eventBus().<JsonObject>request(FarmVerticle.IMPORT, new JsonObject().put("records", records),
                        new DeliveryOptions().setSendTimeout(LEADER_TIMEOUT_MS)).map(reply -> reply.body().getInteger("imported"));
        stored.compose(imported -> vertx.executeBlocking(() -> {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("format", "kernel-tuner");
            details.put("sweepId", b.sweepId());
            details.put("deviceClass", b.deviceClass());
            details.put("kernel", b.kernel().id());
            details.put("device", b.device());
            details.put("imported", imported);
            details.put("duplicates", b.measurements().size() - imported);
            details.put("refused", b.refused().size());
            // Written down after the leader kept the records, with who brought them.
            audit.record("records.import", access.who(ctx), details);
            return imported;
        })).onSuccess(imported -> ctx.json(answer(b, imported))).onFailure(t -> {
            if (t instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
                ApiVerticle.error(ctx, 503, "leader", "no coordinator leads the farm right now; try again");
            } else if (t instanceof ReplyException re && re.failureType() == ReplyFailure.RECIPIENT_FAILURE && re.failureCode() == 503) {
                ApiVerticle.error(ctx, 503, "leader", re.getMessage());
            } else if (t instanceof ReplyException re && re.failureType() == ReplyFailure.RECIPIENT_FAILURE && re.failureCode() == 400) {
                ApiVerticle.error(ctx, 400, "body", re.getMessage());
            } else {
                ctx.fail(t);
            }
        });
    }

    private static JsonObject answer(KernelTunerImport.Batch b, int imported) {
        JsonArray reasons = new JsonArray();
        b.refused().stream().limit(REASONS_SHOWN).forEach(r -> reasons.add(new JsonObject().put("key", r.key()).put("reason", r.reason())));
        return new JsonObject().put("sweepId", b.sweepId()).put("deviceClass", b.deviceClass()).put("kernel", b.kernel().id())
                .put("device", b.device()).put("records", b.measurements().size()).put("imported", imported)
                .put("duplicates", b.measurements().size() - imported).put("refused", b.refused().size()).put("refusals", reasons)
                .put("truncated", b.truncated());
    }
}
