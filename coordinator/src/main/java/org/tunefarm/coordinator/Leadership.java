package org.tunefarm.coordinator;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.Iterator;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Decides which coordinator dispatches: the oldest member of the Hazelcast cluster (its master),
 * and only while it sees at least {@code quorum} members. When the leader dies, the next oldest
 * takes over from the shared state; when a partition heals, the cluster has one oldest member
 * again and any other leader steps down. The quorum is the fence against two halves of a
 * partition both dispatching: with three coordinators and quorum 2, only the majority side leads.
 */
final class Leadership {
    private static final Logger LOG = Logger.getLogger(Leadership.class.getName());
    private static final String NODE_ID = Coordinator.NODE_ID;
    static final long CHECK_MS = 250;
    static final long MERGE_SETTLE_MS = 2_000;

    private final Vertx vertx;
    private final HazelcastInstance hazelcast;
    private final String nodeId;
    private final int quorum;
    private final BooleanSupplier caughtUp;
    private final Supplier<Deployable> farm;
    private String deployment;
    private boolean changing;
    private boolean waitingForCopies;
    /** Set while Hazelcast merges this member into another cluster, and for a moment after. */
    private volatile long mergeSettlesAt;
    private volatile boolean leading;

    /**
     * @param caughtUp whether this coordinator has read every peer's records: one that could not
     *                 does not take the lead (a leader that stays leader keeps leading meanwhile,
     *                 copying what a returning member brings in the background)
     */
    Leadership(Vertx vertx, HazelcastInstance hazelcast, String nodeId, int quorum, BooleanSupplier caughtUp, Supplier<Deployable> farm) {
        this.vertx = vertx;
        this.hazelcast = hazelcast;
        this.nodeId = nodeId;
        this.quorum = quorum;
        this.caughtUp = caughtUp;
        this.farm = farm;
    }

    /** Starts watching; completes once this coordinator leads or knows that another does. */
    Future<Void> start() {
        // A coordinator that steps down while its member merges (a healed partition) unregisters its
        // consumers while Vert.x republishes them into the merged cluster's subscription map, which
        // can leave them there, pointing at a verticle that is gone: so leadership holds still
        // until the merge has settled.
        hazelcast.getLifecycleService().addLifecycleListener(e -> {
            switch (e.getState()) {
                case MERGING -> mergeSettlesAt = Long.MAX_VALUE;
                case MERGED, MERGE_FAILED -> mergeSettlesAt = System.currentTimeMillis() + MERGE_SETTLE_MS;
                default -> { }
            }
        });
        Future<Void> first = check();
        vertx.setPeriodic(CHECK_MS, t -> check());
        return first;
    }

    boolean leading() {
        return leading;
    }

    /**
     * Whether this member heads its cluster now: the oldest member, with a quorum, not merging into
     * another cluster. Unlike {@link #leading} it turns false the moment a healed partition merges
     * this member into the other half, while its farm verticle is still deployed (it steps down
     * once the merge settles): what that verticle would write to the cluster maps then is a stale
     * view that would overwrite the leader's.
     */
    boolean heads() {
        return System.currentTimeMillis() >= mergeSettlesAt && shouldLead();
    }

    /** Whether this member should lead now. */
    private boolean shouldLead() {
        if (!hazelcast.getLifecycleService().isRunning()) return false;
        var members = hazelcast.getCluster().getMembers();
        if (members.size() < quorum) return false;
        Iterator<Member> it = members.iterator();
        return it.hasNext() && nodeId.equals(it.next().getAttribute(NODE_ID));
    }

    private Future<Void> check() {
        if (changing || System.currentTimeMillis() < mergeSettlesAt) return Future.succeededFuture();
        boolean should = shouldLead();
        if (should && deployment == null && !caughtUp.getAsBoolean()) {
            if (!waitingForCopies) LOG.info("not taking the lead until the other coordinators' records are copied here");
            waitingForCopies = true;
        } else if (should && deployment == null) {
            waitingForCopies = false;
            changing = true;
            LOG.info("taking the lead");
            Deployable verticle;
            try {
                verticle = farm.get();
            } catch (RuntimeException | LinkageError e) {
                changing = false; // try again at the next check
                LOG.warning("could not take the lead: " + e);
                return Future.failedFuture(e);
            }
            return vertx.deployVerticle(verticle).andThen(ar -> {
                changing = false;
                if (ar.succeeded()) {
                    deployment = ar.result();
                    leading = true;
                } else {
                    LOG.warning("could not take the lead: " + ar.cause());
                }
            }).mapEmpty();
        } else if (!should && deployment != null) {
            changing = true;
            leading = false;
            LOG.info(hazelcast.getLifecycleService().isRunning() ? "stepping down: another coordinator leads, or the quorum of " + quorum + " is lost"
                    : "stepping down: this coordinator is shutting down");
            return vertx.undeploy(deployment).andThen(ar -> {
                changing = false;
                deployment = null;
            });
        }
        return Future.succeededFuture();
    }
}
