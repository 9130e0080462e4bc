package org.tunefarm.coordinator.lease;

import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Writes the leader's view of one kind of thing (agents, sweeps) to its cluster map, where REST and
 * the dashboard on every coordinator read it. A change of what {@code kind} says (an agent joins or
 * leaves, a sweep starts, ends or is paused) is written at once; any other change (a count grew, a
 * lease was lent) is written within {@link #COALESCE_MS}, once for however many there were. Writing
 * every report's change at once cost the farm's event loop half its time under a few hundred
 * agents: each sweep status is the whole spec and every search's progress, serialized and put.
 * Runs on the farm verticle's context; its timer dies with the verticle. It writes only while its
 * coordinator heads the cluster: a leader merged into the other half of a healed partition would
 * otherwise overwrite that half's leader's entries with its own stale view, which no later change
 * corrects when the thing changes no more (a sweep already done).
 *
 * @param <T> what is published
 */
final class PublishedState<T> {
    private static final Logger LOG = Logger.getLogger(PublishedState.class.getName());
    /** How stale a count on REST may be: well under a person's refresh, many reports long under load. */
    static final long COALESCE_MS = 250;

    /** How a thing is written: its JSON for the map, computed when it is written. */
    interface Writer<T> {
        String json(T t);
    }

    private final Vertx vertx;
    private final String map;
    private final Function<T, String> kind;
    private final Writer<T> writer;
    private final BooleanSupplier heads;
    private final Map<String, T> dirty = new LinkedHashMap<>();
    private final Map<String, String> writtenKind = new HashMap<>();
    private long timer = -1;

    /**
     * @param kind   the part of a thing's state whose change is written at once, e.g. a sweep's state
     * @param writer what is written, e.g. a sweep's status; called only when the thing is written
     * @param heads  whether this coordinator heads the cluster now; nothing is written while it does not
     */
    PublishedState(Vertx vertx, String map, Function<T, String> kind, Writer<T> writer, BooleanSupplier heads) {
        this.vertx = vertx;
        this.map = map;
        this.kind = kind;
        this.writer = writer;
        this.heads = heads;
    }

    /** {@code t}, known by {@code key}, changed. */
    void changed(String key, T t) {
        String k = kind.apply(t);
        if (!k.equals(writtenKind.get(key))) {
            dirty.remove(key);
            write(key, t, k);
            return;
        }
        dirty.put(key, t);
        if (timer < 0) timer = vertx.setTimer(COALESCE_MS, x -> flush());
    }

    /**
     * Writes {@code t} now, whatever was written before: after a member joined, whose former term
     * may have left its own view in the map.
     */
    void rewrite(String key, T t) {
        dirty.remove(key);
        write(key, t, kind.apply(t));
    }

    /** The thing known by {@code key} is gone: nothing pending for it is written, and it leaves the map. */
    void forget(String key) {
        dirty.remove(key);
        writtenKind.remove(key);
        if (!heads.getAsBoolean()) return;
        vertx.sharedData().<String, String>getAsyncMap(map).compose((AsyncMap<String, String> am) -> am.remove(key))
                .onFailure(e -> LOG.log(Level.WARNING, "removing " + key + " from " + map + " failed", e));
    }

    private void flush() {
        timer = -1;
        Map<String, T> due = new LinkedHashMap<>(dirty);
        dirty.clear();
        due.forEach((key, t) -> write(key, t, kind.apply(t)));
    }

    private void write(String key, T t, String k) {
        if (!heads.getAsBoolean()) return;
        writtenKind.put(key, k);
        String json = writer.json(t);
        vertx.sharedData().<String, String>getAsyncMap(map).compose((AsyncMap<String, String> am) -> am.put(key, json))
                .onFailure(e -> LOG.log(Level.WARNING, "publishing to " + map + " failed", e));
    }
}
