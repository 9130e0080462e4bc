package org.tunefarm.coordinator.api;

import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.logging.Logger;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.audit.Audit;

/**
 * Who may read and who may write over REST. Writes need the admin token; an empty admin token
 * turns the check off only while REST listens on loopback (a laptop demo, a test), and elsewhere
 * refuses every write until one is configured. Reads need the read token when one is set (the
 * admin token reads too). Tokens come as {@code Authorization: Bearer <token>} and are compared
 * in constant time.
 */
final class Access {
    private static final Logger LOG = Logger.getLogger(Access.class.getName());

    private final byte[] admin;
    private final byte[] read;
    private final boolean writesOpen;

    Access(CoordinatorConfig config) {
        admin = config.adminToken().getBytes(StandardCharsets.UTF_8);
        read = config.door().readToken().getBytes(StandardCharsets.UTF_8);
        writesOpen = writesOpen(config);
        if (admin.length == 0 && !writesOpen) {
            LOG.warning("REST listens on " + config.httpHost() + " without an adminToken: every write is refused until one is configured");
        } else if (writesOpen) {
            LOG.info("no adminToken: REST writes are open, which is allowed because REST listens on loopback only");
        }
    }

    /** Whether writes need no token: only with no admin token, and REST on loopback. */
    static boolean writesOpen(CoordinatorConfig config) {
        return config.adminToken().isEmpty() && config.httpOnLoopback();
    }

    /** A handler for write routes: passes on, or answers 401. */
    void requireAdmin(RoutingContext ctx) {
        if (writesOpen || (admin.length > 0 && matches(ctx, admin))) {
            ctx.next();
        } else if (admin.length == 0) {
            ApiVerticle.error(ctx, 403, "Authorization", "writes are disabled: this coordinator serves REST beyond loopback and has no adminToken configured");
        } else {
            ApiVerticle.error(ctx, 401, "Authorization", "writes need the admin token as 'Authorization: Bearer <token>'");
        }
    }

    /** A handler for read routes: passes on, or answers 401. */
    void requireReader(RoutingContext ctx) {
        if (read.length == 0 || matches(ctx, read) || (admin.length > 0 && matches(ctx, admin))) {
            ctx.next();
        } else {
            ApiVerticle.error(ctx, 401, "Authorization", "reads need the read token as 'Authorization: Bearer <token>'");
        }
    }

    /** Who a request that passed {@link #requireAdmin} came from, for the audit log. */
    Audit.Who who(RoutingContext ctx) {
        String credential = admin.length > 0 && matches(ctx, admin) ? "admin-token" : writesOpen ? "open-loopback" : "none";
        return new Audit.Who(credential, null, String.valueOf(ctx.request().remoteAddress()));
    }

    private static boolean matches(RoutingContext ctx, byte[] token) {
        String auth = ctx.request().getHeader("Authorization");
        String given = auth != null && auth.startsWith("Bearer ") ? auth.substring(7).strip() : "";
        return MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8));
    }
}
