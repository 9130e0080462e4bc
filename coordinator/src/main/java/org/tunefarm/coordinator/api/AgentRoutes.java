package org.tunefarm.coordinator.api;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.tunefarm.coordinator.credential.Credential;
import org.tunefarm.coordinator.credential.Credentials;

/**
 * Who may speak for which agent, over REST:
 * <ul>
 *   <li>{@code GET /api/credentials}: every enrolled or revoked agent id, with when and by whom
 *       (never a credential or its hash);</li>
 *   <li>{@code POST /api/agents/{id}/enroll} (admin): a new credential for the id, shown once in the
 *       answer; it replaces any earlier one, whose connections close;</li>
 *   <li>{@code POST /api/agents/{id}/revoke} (admin): the id is locked out on every coordinator at
 *       once, its open connection closed, until an admin enrolls it again.</li>
 * </ul>
 */
final class AgentRoutes {
    private final Vertx vertx;
    private final Access access;
    private final Credentials credentials;

    AgentRoutes(Vertx vertx, Access access, Credentials credentials) {
        this.vertx = vertx;
        this.access = access;
        this.credentials = credentials;
    }

    void mount(Router router) {
        router.get("/api/credentials").handler(access::requireReader).handler(this::list);
        router.post("/api/agents/:id/enroll").handler(access::requireAdmin).handler(this::enroll);
        router.post("/api/agents/:id/revoke").handler(access::requireAdmin).handler(this::revoke);
        for (String path : new String[] {"/api/agents/:id/enroll", "/api/agents/:id/revoke"}) {
            router.route(path).handler(ctx -> {
                ctx.response().putHeader("Allow", "POST");
                ApiVerticle.error(ctx, 405, "method", ctx.request().method() + " is not allowed here (allowed: POST)");
            });
        }
        router.route("/api/credentials").handler(ctx -> {
            ctx.response().putHeader("Allow", "GET");
            ApiVerticle.error(ctx, 405, "method", ctx.request().method() + " is not allowed here (allowed: GET)");
        });
    }

    private void list(RoutingContext ctx) {
        credentials.list().onSuccess(cs -> {
            JsonArray a = new JsonArray();
            for (Credential c : cs) {
                a.add(new JsonObject().put("agentId", c.agentId()).put("state", c.state()).put("at", c.at()).put("by", c.by()));
            }
            ctx.json(a);
        }).onFailure(ctx::fail);
    }

    private void enroll(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        credentials.issue(id, access.who(ctx)).onSuccess(secret -> {
            ctx.response().setStatusCode(201);
            ctx.json(new JsonObject().put("agentId", id).put("credential", secret));
        }).onFailure(t -> failed(ctx, t));
    }

    private void revoke(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        credentials.revoke(id, access.who(ctx)).onSuccess(c -> ctx.json(new JsonObject().put("agentId", id).put("state", c.state()).put("at", c.at())))
                .onFailure(t -> failed(ctx, t));
    }

    private static void failed(RoutingContext ctx, Throwable t) {
        if (t instanceof Credentials.Refused r) ApiVerticle.error(ctx, r.code(), "id", r.getMessage());
        else ctx.fail(t);
    }
}
