package org.tunefarm.coordinator.credential;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.tunefarm.coordinator.audit.Audit;
import org.tunefarm.protocol.Protocol;

/**
 * Who may speak for an agent, farm-wide. The live state is a cluster map (id to the newest
 * {@link Credential}), so every coordinator's bridge checks against the same answer and a
 * self-enrollment is settled by one atomic put-if-absent wherever it arrives; every coordinator
 * also keeps every state in its own {@link CredentialLog}, so the credentials outlive a restart of
 * the whole farm. A change is written to the map, fsynced here, audited, then published to every
 * coordinator, which writes it down too and closes any connection it no longer admits (a revoked
 * agent is locked out at once everywhere). Every {@value #RECONCILE_MS} ms, and at start, the map
 * and this coordinator's log are reconciled, newest state winning, which also repairs what a
 * healed partition's map merge chose.
 */
public final class Credentials {
    private static final Logger LOG = Logger.getLogger(Credentials.class.getName());
    public static final String MAP = "tunefarm.credentials";
    /** Cluster address where every change is published to every coordinator. */
    static final String CHANGED = "tunefarm.credentials.changed";
    static final long RECONCILE_MS = 30_000;

    /** A refused enrollment: the id is taken or revoked, or not an id at all. */
    public static final class Refused extends RuntimeException {
        private final int code;

        Refused(int code, String message) {
            super(message);
            this.code = code;
        }

        /** HTTP-like: 400 bad id, 403 revoked, 409 already enrolled. */
        public int code() {
            return code;
        }
    }

    private final Vertx vertx;
    private final CredentialLog log;
    private final Audit audit;
    private final Map<String, Credential> kept = new ConcurrentHashMap<>();
    private final List<Consumer<Credential>> listeners = new CopyOnWriteArrayList<>();
    private long timer = -1;

    public Credentials(Vertx vertx, Path file, Audit audit) throws IOException {
        this.vertx = vertx;
        this.log = new CredentialLog(file);
        this.audit = audit;
    }

    /** Reads this coordinator's log, reconciles it with the farm's map and starts listening. */
    public Future<Void> start() {
        vertx.eventBus().<String>consumer(CHANGED, m -> learn(read(m.body())));
        return vertx.executeBlocking(() -> {
            kept.putAll(log.read());
            return null;
        }).compose(v -> reconcile().otherwiseEmpty()).onSuccess(v -> timer = vertx.setPeriodic(RECONCILE_MS, t -> reconcile()));
    }

    /** Told of every change that reaches this coordinator, e.g. to close connections it no longer admits. */
    public void onChange(Consumer<Credential> listener) {
        listeners.add(listener);
    }

    /** The farm's current state for an id; null when it never enrolled. */
    public Future<Credential> lookup(String agentId) {
        return map().compose(m -> m.get(agentId)).map(Credentials::read);
    }

    public Future<List<Credential>> list() {
        return map().compose(AsyncMap::values).map(vs -> {
            List<Credential> out = new ArrayList<>();
            for (String v : vs) {
                Credential c = read(v);
                if (c != null) out.add(c);
            }
            out.sort(Comparator.comparing(Credential::agentId));
            return out;
        });
    }

    /**
     * An agent enrolls itself with the farm token: it gets a credential if its id has none.
     *
     * @return the credential, to be shown to the agent once
     */
    public Future<String> enroll(String agentId, Audit.Who who) {
        if (agentId == null || !agentId.matches(Credential.ID_PATTERN)) {
            return Future.failedFuture(new Refused(400, "agentId: must be 1-100 characters of [A-Za-z0-9._:-]"));
        }
        Credential.Issued issued = Credential.issue(agentId, "agent@" + who.remote(), System.currentTimeMillis());
        return map().compose(m -> m.putIfAbsent(agentId, Protocol.write(issued.stored()))).compose(previous -> {
            if (previous == null) {
                // Not written down here: take it back, or the agent could never enroll again.
                return commit(issued.stored(), "agent.enroll", who).map(issued.secret())
                        .recover(t -> map().compose(m -> m.removeIfPresent(agentId, Protocol.write(issued.stored()))).transform(x -> Future.failedFuture(t)));
            }
            Credential p = read(previous);
            return Future.failedFuture(p.enrolled()
                    ? new Refused(409, "agentId: agent " + agentId + " is already enrolled: it registers with its own credential")
                    : new Refused(403, "agentId: agent " + agentId + " was revoked: an admin must enroll it again"));
        });
    }

    /** An admin issues a new credential for an id, replacing (and locking out) any earlier one. */
    public Future<String> issue(String agentId, Audit.Who who) {
        if (agentId == null || !agentId.matches(Credential.ID_PATTERN)) {
            return Future.failedFuture(new Refused(400, "id: must be 1-100 characters of [A-Za-z0-9._:-]"));
        }
        Credential.Issued issued = Credential.issue(agentId, "admin@" + who.remote(), System.currentTimeMillis());
        return map().compose(m -> m.put(agentId, Protocol.write(issued.stored())))
                .compose(v -> commit(issued.stored(), "agent.enroll", who)).map(issued.secret());
    }

    /** Locks an id out on every coordinator until an admin enrolls it again. */
    public Future<Credential> revoke(String agentId, Audit.Who who) {
        if (agentId == null || !agentId.matches(Credential.ID_PATTERN)) {
            return Future.failedFuture(new Refused(400, "id: must be 1-100 characters of [A-Za-z0-9._:-]"));
        }
        Credential c = Credential.revoked(agentId, "admin@" + who.remote(), System.currentTimeMillis());
        return map().compose(m -> m.put(agentId, Protocol.write(c))).compose(v -> commit(c, "agent.revoke", who)).map(c);
    }

    /** The map holds the change: make it durable here, audit it, then tell every coordinator. */
    private Future<Void> commit(Credential c, String action, Audit.Who who) {
        return vertx.<Void>executeBlocking(() -> {
            keep(c);
            audit.record(action, who, Map.of("agentId", c.agentId()));
            return null;
        }).onSuccess(v -> vertx.eventBus().publish(CHANGED, Protocol.write(c)));
    }

    /** A change published by any coordinator (this one included). */
    private void learn(Credential c) {
        if (c == null) return;
        vertx.executeBlocking(() -> keep(c)).onComplete(ar -> {
            if (ar.failed()) LOG.severe("credential change for " + c.agentId() + " not written here: " + ar.cause().getMessage());
            listeners.forEach(l -> l.accept(c));
        });
    }

    /** Writes a state to this coordinator's log if it is newer than what it holds. */
    private boolean keep(Credential c) throws IOException {
        synchronized (kept) {
            if (!c.newerThan(kept.get(c.agentId()))) return false;
            log.append(List.of(c));
            kept.put(c.agentId(), c);
            return true;
        }
    }

    /** Newest wins both ways: the map learns what only this log holds, this log what only the map holds. */
    private Future<Void> reconcile() {
        return map().compose(m -> m.entries().compose(entries -> {
            List<Future<?>> puts = new ArrayList<>();
            for (Credential c : kept.values()) {
                String current = entries.get(c.agentId());
                if (current == null) puts.add(m.putIfAbsent(c.agentId(), Protocol.write(c)));
                else if (c.newerThan(read(current))) puts.add(m.replaceIfPresent(c.agentId(), current, Protocol.write(c)));
            }
            List<Credential> learned = new ArrayList<>();
            for (String v : entries.values()) {
                Credential c = read(v);
                if (c != null && c.newerThan(kept.get(c.agentId()))) learned.add(c);
            }
            return Future.join(puts).transform(x -> learned.isEmpty() ? Future.succeededFuture() : vertx.executeBlocking(() -> {
                for (Credential c : learned) keep(c);
                return null;
            }).onSuccess(y -> learned.forEach(c -> listeners.forEach(l -> l.accept(c))))).<Void>mapEmpty();
        })).onFailure(t -> LOG.warning("reconciling credentials with the cluster failed: " + t.getMessage()));
    }

    public void stop() {
        if (timer >= 0) vertx.cancelTimer(timer);
    }

    private Future<AsyncMap<String, String>> map() {
        return vertx.sharedData().getAsyncMap(MAP);
    }

    private static Credential read(String json) {
        if (json == null) return null;
        try {
            return Protocol.JSON.readValue(json, Credential.class);
        } catch (IOException e) {
            LOG.warning("unreadable credential entry: " + e.getMessage());
            return null;
        }
    }
}
