package org.tunefarm.coordinator.dashboard;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;

/**
 * What the dashboard derives from the records this coordinator holds (its full replica, so any
 * coordinator can serve it): each search's points, each sweep's failures by status and recent
 * rate, each agent's last record and its sensor readings over time. Records arrive on worker
 * threads (appends) and are read on the event loop, so every method is synchronized.
 */
final class RecordTally {
    /** Points kept per search; a longer search keeps its latest ones (the plots stay readable). */
    static final int POINTS_PER_SEARCH = 10_000;
    /**
     * Points kept in all: past this, the searches that got a record least recently are dropped
     * whole (their records stay in the log), so a long-lived farm's history cannot fill the heap.
     */
    static final int POINTS_IN_ALL = 300_000;
    /** Sensor readings kept per agent. */
    static final int READINGS_PER_AGENT = 2_000;
    /** Records/s and ETA are measured over this window of arrivals. */
    static final long RATE_WINDOW_MS = 60_000;

    /** In order of last record, least recent first. */
    private final LinkedHashMap<Search, Deque<TallyPoint>> points = new LinkedHashMap<>(16, 0.75f, true);
    /** One copy of each sweep id, class, kernel and agent name the points hold. */
    private final Map<String, String> names = new HashMap<>();
    /** Each kernel's id, as its shared name: built once, not for each of a season's records. */
    private final Map<KernelKey, String> kernelIds = new HashMap<>();

    /** A search of the points: made of the tally's shared names, whose hashes are known already. */
    private record Search(String sweep, String deviceClass, String kernel) {}
    private int pointsInAll;
    private final int perSearch;
    private final int inAll;
    private final Map<String, Deque<Long>> arrivals = new HashMap<>();
    private final Map<String, Map<String, Integer>> failures = new HashMap<>();
    private final Map<String, TallyPoint> lastByAgent = new HashMap<>();
    private final Map<String, Deque<Reading>> readings = new LinkedHashMap<>();
    /**
     * One text of each parameter set lately seen: a season's records repeat the points of a few
     * spaces, and writing each record's parameters as JSON again was most of what a point cost.
     */
    private final Map<ParamsKey, String> paramsText = new LinkedHashMap<>(256, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<ParamsKey, String> eldest) {
            return size() > PARAMS_KEPT;
        }
    };
    static final int PARAMS_KEPT = 4096;

    /**
     * A parameter set as a key of {@link #paramsText}. Why not the map itself: {@code Map.hashCode}
     * sums each entry's key hash XOR value hash, so the grids of small integers a space is made of
     * collide by the hundred (a bin of them became a tree searched by {@code equals}, most of what
     * a start spent on the tally); here each entry is mixed before the sum, which equal maps still
     * agree on.
     */
    private record ParamsKey(Map<String, Object> params, int hash) {
        static ParamsKey of(Map<String, Object> params) {
            long h = 0;
            for (Map.Entry<String, Object> e : params.entrySet()) {
                long x = (31L * e.getKey().hashCode() + java.util.Objects.hashCode(e.getValue())) * 0x9E3779B97F4A7C15L;
                h += x ^ (x >>> 29);
            }
            return new ParamsKey(params, (int) (h ^ (h >>> 32)));
        }

        @Override public int hashCode() {
            return hash;
        }

        @Override public boolean equals(Object o) {
            return o instanceof ParamsKey k && k.hash == hash && (inOrder(k.params, params) || k.params.equals(params));
        }

        /**
         * Whether the two sets have equal entries in the same order: records of one space list their
         * parameters in one order, so this settles nearly every hit without a lookup per entry.
         */
        private static boolean inOrder(Map<String, Object> a, Map<String, Object> b) {
            if (a.size() != b.size()) return false;
            var x = a.entrySet().iterator();
            var y = b.entrySet().iterator();
            while (x.hasNext()) {
                Map.Entry<String, Object> p = x.next(), q = y.next();
                if (!p.getKey().equals(q.getKey()) || !java.util.Objects.equals(p.getValue(), q.getValue())) return false;
            }
            return true;
        }
    }

    /** A sensor reading as the plots show it, kept compact (an agent keeps {@link #READINGS_PER_AGENT}). */
    private record Reading(long t, Double tempC, Double clockMhz) {
        JsonObject json() {
            return new JsonObject().put("t", t).put("tempC", tempC).put("clockMhz", clockMhz);
        }
    }
    /**
     * Points that arrived since the feed last took them, the latest {@link #FRESH_KEPT}: a copy of
     * a long history arrives before the feed runs (a coordinator catches up before it serves), and
     * the page is sent the state anyway; only what is live needs sending one by one.
     */
    private final Deque<TallyPoint> fresh = new ArrayDeque<>();
    static final int FRESH_KEPT = 10_000;
    private long total;

    RecordTally() {
        this(POINTS_PER_SEARCH, POINTS_IN_ALL);
    }

    RecordTally(int perSearch, int inAll) {
        this.perSearch = perSearch;
        this.inAll = inAll;
    }

    /** The key of one search: sweep, device class and kernel (its shape). */
    static String searchKey(String sweepId, String deviceClass, String kernel) {
        return sweepId + "\n" + deviceClass + "\n" + kernel;
    }

    /**
     * Takes records in.
     *
     * @param arrivedAt when they became durable here, or 0 for records read back at start (they
     *                  count for totals and plots, not for the current rate)
     */
    synchronized void add(List<Measurement> ms, long arrivedAt) {
        for (Measurement m : ms) {
            Search search = new Search(shared(m.sweepId()), shared(m.deviceClass()), kernelIds.computeIfAbsent(m.key(), k -> shared(k.id())));
            TallyPoint p = TallyPoint.of(m, search.sweep(), search.deviceClass(), search.kernel(), shared(m.agentId()),
                    paramsText.computeIfAbsent(ParamsKey.of(m.params()), k -> Protocol.write(k.params())));
            Deque<TallyPoint> ps = points.computeIfAbsent(search, k -> new ArrayDeque<>());
            ps.addLast(p);
            pointsInAll++;
            if (ps.size() > perSearch) {
                ps.removeFirst();
                pointsInAll--;
            }
            while (pointsInAll > inAll && points.size() > 1) {
                var eldest = points.entrySet().iterator().next();
                pointsInAll -= eldest.getValue().size();
                points.remove(eldest.getKey());
            }
            if (m.status() != Status.OK) failures.computeIfAbsent(m.sweepId(), k -> new LinkedHashMap<>()).merge(m.status().name(), 1, Integer::sum);
            TallyPoint last = lastByAgent.get(m.agentId());
            if (last == null || last.t() <= m.finishedAt()) lastByAgent.put(p.agent(), p);
            reading(m.agentId(), m.startedAt(), m.before());
            reading(m.agentId(), m.finishedAt(), m.after());
            if (arrivedAt > 0) {
                arrived(searchKey(search.sweep(), search.deviceClass(), search.kernel()), arrivedAt);
                arrived(m.sweepId(), arrivedAt);
                fresh.addLast(p);
                if (fresh.size() > FRESH_KEPT) fresh.removeFirst();
            }
            total++;
        }
    }

    /** Counts an arrival for a rate, forgetting those out of the window: a copy of millions of records must not keep one each. */
    private void arrived(String key, long at) {
        Deque<Long> as = arrivals.computeIfAbsent(key, k -> new ArrayDeque<>());
        as.addLast(at);
        while (as.peekFirst() < at - RATE_WINDOW_MS) as.removeFirst();
    }

    /** A heartbeat's (or a record's) sensor reading; an agent with no sensor keeps no readings. */
    synchronized void reading(String agentId, long at, SensorReading s) {
        if (s == null || (s.temperatureC() == null && s.clockMhz() == null)) return;
        Deque<Reading> rs = readings.computeIfAbsent(agentId, k -> new ArrayDeque<>());
        Reading last = rs.peekLast();
        if (last != null && last.t() == at) return;
        rs.addLast(new Reading(at, s.temperatureC(), s.clockMhz()));
        if (rs.size() > READINGS_PER_AGENT) rs.removeFirst();
    }

    /** A search's points, oldest first. */
    synchronized JsonArray points(String sweepId, String deviceClass, String kernel) {
        // A read is not a record: look without touching the eviction order.
        Deque<TallyPoint> ps = null;
        Search key = new Search(sweepId, deviceClass, kernel);
        for (var e : points.entrySet()) if (e.getKey().equals(key)) ps = e.getValue();
        JsonArray out = new JsonArray();
        if (ps != null) for (TallyPoint p : ps) out.add(p.json());
        return out;
    }

    /** Points that arrived since the last call. */
    synchronized List<JsonObject> takeFresh() {
        List<JsonObject> out = new ArrayList<>(fresh.size());
        for (TallyPoint p : fresh) out.add(p.json());
        fresh.clear();
        return out;
    }

    /** Records per second over the last window, for a sweep id or a search key. */
    synchronized double rate(String key, long now) {
        Deque<Long> as = arrivals.get(key);
        if (as == null) return 0;
        while (!as.isEmpty() && as.peekFirst() < now - RATE_WINDOW_MS) as.removeFirst();
        if (as.isEmpty()) return 0;
        // Over the window, or since the first arrival in it when the sweep is younger than that.
        double seconds = Math.max(1.0, Math.min(RATE_WINDOW_MS, now - as.peekFirst() + 1000) / 1000.0);
        return as.size() / seconds;
    }

    synchronized Map<String, Integer> failures(String sweepId) {
        return Map.copyOf(failures.getOrDefault(sweepId, Map.of()));
    }

    synchronized JsonObject lastRecord(String agentId) {
        TallyPoint p = lastByAgent.get(agentId);
        return p == null ? null : p.json();
    }

    /** Every agent's sensor readings, oldest first. */
    synchronized JsonObject readings() {
        JsonObject out = new JsonObject();
        readings.forEach((agent, rs) -> {
            JsonArray a = new JsonArray();
            for (Reading r : rs) a.add(r.json());
            out.put(agent, a);
        });
        return out;
    }

    synchronized long total() {
        return total;
    }

    /** The tally's one copy of a name (sweep id, class, kernel, agent): bounded by the farm's names, not its records. */
    private String shared(String name) {
        return names.computeIfAbsent(name, n -> n);
    }
}
