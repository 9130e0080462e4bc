package org.tunefarm.coordinator.dashboard;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tunefarm.coordinator.lease.FarmVerticle;
import org.tunefarm.measure.SensorReading;

/**
 * The farm as the dashboard shows it, read from the cluster maps (agents, sweeps) that the leading
 * coordinator publishes, enriched with what this coordinator's replica of the records says (rates,
 * ETAs, failures by status, each agent's last candidate). Nothing here is the leader's private
 * state, so every coordinator serves the same view and a new leader changes nothing in it.
 */
public final class FarmView {

    /** One agent as counted by the metrics. */
    public record AgentState(String deviceClass, String state) {}

    /** Sweeps the live state carries, the most recent ones. */
    static final int SWEEPS_SHOWN = 50;

    private final Vertx vertx;
    private final RecordTally tally;
    private volatile List<AgentState> agents = List.of();

    FarmView(Vertx vertx, RecordTally tally) {
        this.vertx = vertx;
        this.tally = tally;
    }

    /** The agents as of the last {@link #read()}. */
    public List<AgentState> agents() {
        return agents;
    }

    /** Reads the cluster maps and builds the dashboard's state. */
    Future<JsonObject> read() {
        Future<List<String>> as = values(FarmVerticle.AGENTS_MAP);
        Future<List<String>> ss = values(FarmVerticle.SWEEPS_MAP);
        return Future.all(as, ss).map(x -> {
            long now = System.currentTimeMillis();
            JsonArray agentRows = new JsonArray();
            List<AgentState> states = new ArrayList<>();
            for (JsonObject a : sorted(as.result(), "agentId")) {
                JsonObject row = agent(a);
                agentRows.add(row);
                states.add(new AgentState(row.getString("deviceClass"), row.getString("state")));
            }
            agents = List.copyOf(states);
            JsonArray sweepRows = new JsonArray();
            List<JsonObject> sweeps = sorted(ss.result(), "createdAt");
            // The most recent sweeps: the feed stays small however long the farm has run (REST has them all).
            for (JsonObject s : sweeps.subList(Math.max(0, sweeps.size() - SWEEPS_SHOWN), sweeps.size())) sweepRows.add(sweep(s, now));
            return new JsonObject().put("agents", agentRows).put("sweeps", sweepRows).put("records", tally.total());
        });
    }

    private Future<List<String>> values(String map) {
        return vertx.sharedData().<String, String>getAsyncMap(map).compose(AsyncMap::values);
    }

    private static List<JsonObject> sorted(Collection<String> values, String by) {
        List<JsonObject> out = new ArrayList<>();
        for (String v : values) out.add(new JsonObject(v));
        out.sort((a, b) -> a.getValue(by) instanceof Number x && b.getValue(by) instanceof Number y
                ? Long.compare(x.longValue(), y.longValue()) : String.valueOf(a.getValue(by)).compareTo(String.valueOf(b.getValue(by))));
        return out;
    }

    /** An agent's row: what an operator scans for (the profile stays behind /api/agents). */
    private JsonObject agent(JsonObject a) {
        String id = a.getString("agentId");
        boolean alive = a.getBoolean("alive", false);
        String lease = a.getString("leaseId");
        JsonObject sensors = a.getJsonObject("sensors");
        JsonObject profile = a.getJsonObject("profile", new JsonObject());
        long lastSeen = a.getLong("lastSeen", 0L);
        if (sensors != null) {
            tally.reading(id, lastSeen, new SensorReading(sensors.getDouble("temperatureC"), sensors.getDouble("clockMhz"), sensors.getDouble("powerW")));
        }
        JsonObject row = new JsonObject().put("id", id).put("deviceClass", a.getString("deviceClass"))
                .put("state", !alive ? "offline" : lease != null ? "measuring" : "idle")
                .put("lastSeen", lastSeen).put("measured", a.getInteger("measured", 0))
                .put("tempC", sensors != null ? sensors.getDouble("temperatureC") : null)
                .put("clockMhz", sensors != null ? sensors.getDouble("clockMhz") : null)
                .put("cpu", profile.getString("cpuModel")).put("arch", profile.getString("arch"))
                .put("jvm", profile.getString("jvmVendor", "") + " " + profile.getValue("jvmMajor", ""))
                // Agents that report a version at registration carry it in their entry.
                .put("version", a.getValue("version"));
        JsonObject last = tally.lastRecord(id);
        if (last != null && lease != null) row.put("sweep", last.getString("sweep")).put("candidate", last);
        else if (last != null) row.put("lastCandidate", last);
        return row;
    }

    /** A sweep's row: its searches' progress with rate and ETA, and its failures by status. */
    private JsonObject sweep(JsonObject s, long now) {
        String id = s.getString("id");
        JsonArray searches = new JsonArray();
        for (Object o : s.getJsonArray("searches", new JsonArray())) {
            JsonObject p = ((JsonObject) o).copy();
            double rate = tally.rate(RecordTally.searchKey(id, p.getString("deviceClass"), p.getString("kernel")), now);
            int left = Math.max(0, p.getInteger("budget", 0) - p.getInteger("measured", 0));
            p.put("rate", rate);
            // An exhaustive search (budget 0) has no known end to estimate.
            p.put("etaS", p.getBoolean("done", false) ? Double.valueOf(0) : p.getInteger("budget", 0) > 0 && rate > 0 ? Double.valueOf(left / rate) : null);
            searches.add(p);
        }
        JsonObject spec = s.getJsonObject("spec", new JsonObject());
        Map<String, Integer> failures = new TreeMap<>(tally.failures(id));
        return new JsonObject().put("id", id).put("name", s.getString("name")).put("kernel", s.getString("kernel"))
                .put("state", s.getString("state")).put("priority", s.getValue("priority")).put("createdAt", s.getLong("createdAt"))
                .put("strategy", spec.getJsonObject("strategy")).put("rate", tally.rate(id, now))
                .put("failures", new JsonObject(new java.util.LinkedHashMap<>(failures))).put("searches", searches);
    }
}
