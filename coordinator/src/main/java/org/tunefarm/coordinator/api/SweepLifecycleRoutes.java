package org.tunefarm.coordinator.api;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.Locale;
import org.tunefarm.coordinator.audit.Audit;
import org.tunefarm.coordinator.lease.FarmVerticle;
import org.tunefarm.coordinator.sweep.SweepControl;

/**
 * The life of a sweep over REST: {@code POST /api/sweeps/{id}/pause}, {@code /resume},
 * {@code /cancel} and {@code /priority} (body {@code {"priority": n}}). Each needs the admin token,
 * is handed to the leader (which keeps it in the sweep log before applying it) and answers the
 * sweep's status; an unknown sweep is a 404, a change its state forbids (resuming a cancelled
 * sweep, pausing a done one) a 409, and asking for what already holds changes nothing (200).
 */
final class SweepLifecycleRoutes {
    private static final int MAX_BODY = 4096;

    private final Vertx vertx;
    private final Access access;
    private final Audit audit;

    private SweepLifecycleRoutes(Vertx vertx, Access access, Audit audit) {
        this.vertx = vertx;
        this.access = access;
        this.audit = audit;
    }

    static void mount(Router router, Access access, Vertx vertx, Audit audit) {
        SweepLifecycleRoutes routes = new SweepLifecycleRoutes(vertx, access, audit);
        for (SweepControl.Action a : SweepControl.Action.values()) {
            String path = "/api/sweeps/:id/" + a.name().toLowerCase(Locale.ROOT);
            router.post(path).handler(access::requireAdmin);
            if (a == SweepControl.Action.PRIORITY) {
                router.post(path).handler(BodyHandler.create().setBodyLimit(MAX_BODY).setHandleFileUploads(false)).handler(routes::priority);
            } else {
                router.post(path).handler(ctx -> routes.control(ctx, a, 0));
            }
            router.route(path).handler(ctx -> {
                ctx.response().putHeader("Allow", "POST");
                ApiVerticle.error(ctx, 405, "method", ctx.request().method() + " is not allowed on " + path + " (allowed: POST)");
            });
        }
    }

    private void priority(RoutingContext ctx) {
        Object p;
        try {
            JsonObject body = ctx.body().asJsonObject();
            if (body == null) throw new DecodeException("empty");
            p = body.getValue("priority");
        } catch (DecodeException | ClassCastException e) {
            ApiVerticle.error(ctx, 400, "body", "must be a JSON object {\"priority\": n}");
            return;
        }
        if (!(p instanceof Integer n) || n < -SweepControl.MAX_PRIORITY || n > SweepControl.MAX_PRIORITY) {
            ApiVerticle.error(ctx, 400, "priority", "must be an integer in [" + -SweepControl.MAX_PRIORITY + ", " + SweepControl.MAX_PRIORITY + "], got " + p);
            return;
        }
        control(ctx, SweepControl.Action.PRIORITY, n);
    }

    private void control(RoutingContext ctx, SweepControl.Action action, int priority) {
        String id = ctx.pathParam("id");
        JsonObject msg = new JsonObject().put("id", id).put("action", action.name()).put("priority", priority);
        vertx.eventBus().<JsonObject>request(FarmVerticle.CONTROL, msg).compose(reply -> vertx.executeBlocking(() -> {
            // Written down after the leader kept the change, with who asked for it.
            audit.record("sweep." + action.name().toLowerCase(Locale.ROOT), access.who(ctx), java.util.Map.of("sweepId", id, "priority", priority));
            return reply;
        })).onSuccess(reply -> ctx.json(reply.body())).onFailure(t -> {
            if (t instanceof ReplyException re && re.failureType() == ReplyFailure.RECIPIENT_FAILURE && re.failureCode() >= 400 && re.failureCode() < 500) {
                String m = re.getMessage();
                int colon = m.indexOf(": ");
                String field = colon > 0 && m.substring(0, colon).matches("[a-z]+") ? m.substring(0, colon) : "id";
                ApiVerticle.error(ctx, re.failureCode(), field, colon > 0 ? m.substring(colon + 2) : m);
            } else if (t instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
                ApiVerticle.error(ctx, 503, "leader", "no coordinator leads the farm right now; try again");
            } else {
                ctx.fail(t);
            }
        });
    }
}
