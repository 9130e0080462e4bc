package org.tunefarm.coordinator.exchange;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tunefarm.protocol.Protocol;

/**
 * What changed between two best-kernel tables, for those who ship them: winners that are new,
 * winners whose parameters changed (with the speedup, old median / new median), entries gone, and
 * entries whose winner stayed but whose time moved. A winner is <em>slower</em> when its new median
 * exceeds the old one by more than the tolerance; a CI job fails on that.
 */
public final class TableDiff {

    /** How an entry changed. */
    public enum Kind { NEW, CHANGED, SAME, GONE }

    /**
     * One entry of either table.
     *
     * @param speedup old median / new median (above 1: faster), null for NEW and GONE
     * @param slower  whether the new median exceeds the old one by more than the tolerance
     */
    public record Change(Kind kind, String deviceClass, String objective, String kernel, JsonNode oldParams, JsonNode newParams,
                         Double oldMedianNs, Double newMedianNs, Double speedup, boolean slower) {}

    private final TableSnapshot older;
    private final TableSnapshot newer;
    private final double tolerance;
    private final List<Change> changes = new ArrayList<>();

    /** @param tolerance how much slower a winner may get before it counts, e.g. 0.05 for 5% */
    public TableDiff(TableSnapshot older, TableSnapshot newer, double tolerance) {
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) throw new IllegalArgumentException("--tolerance: must be a finite number >= 0, got " + tolerance);
        this.older = older;
        this.newer = newer;
        this.tolerance = tolerance;
        Map<String, TableSnapshot.Row> before = older.bySlot();
        Map<String, TableSnapshot.Row> after = newer.bySlot();
        for (TableSnapshot.Row n : after.values()) {
            TableSnapshot.Row o = before.get(n.slot());
            if (o == null) {
                changes.add(new Change(Kind.NEW, n.deviceClass(), n.objective(), n.kernelId(), null, n.params(), null, n.medianNs(), null, false));
            } else {
                double speedup = o.medianNs() / n.medianNs();
                boolean slower = n.medianNs() > o.medianNs() * (1 + tolerance);
                Kind kind = o.params().equals(n.params()) ? Kind.SAME : Kind.CHANGED;
                changes.add(new Change(kind, n.deviceClass(), n.objective(), n.kernelId(), o.params(), n.params(), o.medianNs(), n.medianNs(), speedup, slower));
            }
        }
        for (TableSnapshot.Row o : before.values()) {
            if (!after.containsKey(o.slot())) {
                changes.add(new Change(Kind.GONE, o.deviceClass(), o.objective(), o.kernelId(), o.params(), null, o.medianNs(), null, null, false));
            }
        }
    }

    public List<Change> changes() {
        return List.copyOf(changes);
    }

    /** Whether any winner got slower than the tolerance allows. */
    public boolean anySlower() {
        return changes.stream().anyMatch(Change::slower);
    }

    public Map<Kind, Integer> counts() {
        Map<Kind, Integer> n = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) n.put(k, 0);
        for (Change c : changes) n.merge(c.kind(), 1, Integer::sum);
        return n;
    }

    /** One line per new, changed, gone or slower entry (unchanged ones within tolerance are only counted), then a summary. */
    public void print(PrintStream out) {
        for (Change c : changes) {
            if (c.kind() == Kind.SAME && !c.slower() && !(c.speedup() > 1 + tolerance)) continue;
            String where = c.deviceClass() + "  " + c.kernel() + (c.objective().equals(TableSnapshot.LATENCY) ? "" : "  " + c.objective());
            String line = switch (c.kind()) {
                case NEW -> "new      " + where + "  " + params(c.newParams()) + "  " + ms(c.newMedianNs());
                case GONE -> "gone     " + where + "  " + params(c.oldParams()) + "  " + ms(c.oldMedianNs());
                case CHANGED -> "changed  " + where + "  " + params(c.oldParams()) + " -> " + params(c.newParams()) + "  "
                        + ms(c.oldMedianNs()) + " -> " + ms(c.newMedianNs()) + "  " + speedup(c.speedup());
                case SAME -> (c.slower() ? "slower   " : "faster   ") + where + "  " + params(c.newParams()) + "  "
                        + ms(c.oldMedianNs()) + " -> " + ms(c.newMedianNs()) + "  " + speedup(c.speedup());
            };
            out.println(line + (c.slower() ? "  SLOWER" : ""));
        }
        Map<Kind, Integer> n = counts();
        long slower = changes.stream().filter(Change::slower).count();
        out.printf(Locale.ROOT, "%d new, %d changed, %d gone, %d same winner; %d slower by more than %s%n",
                n.get(Kind.NEW), n.get(Kind.CHANGED), n.get(Kind.GONE), n.get(Kind.SAME), slower, percent(tolerance));
    }

    /** The diff as one JSON object: both tables' provenance, the tolerance, every entry's change and the counts. */
    public ObjectNode json() {
        ObjectNode o = Protocol.JSON.createObjectNode();
        o.set("old", provenance(older));
        o.set("new", provenance(newer));
        o.put("tolerance", tolerance);
        o.put("slower", anySlower());
        ObjectNode counts = o.putObject("counts");
        counts().forEach((k, v) -> counts.put(k.name().toLowerCase(Locale.ROOT), v));
        counts.put("slower", changes.stream().filter(Change::slower).count());
        ArrayNode a = o.putArray("entries");
        for (Change c : changes) {
            ObjectNode e = a.addObject();
            e.put("kind", c.kind().name().toLowerCase(Locale.ROOT));
            e.put("deviceClass", c.deviceClass());
            e.put("objective", c.objective());
            e.put("kernel", c.kernel());
            e.set("oldParams", c.oldParams());
            e.set("newParams", c.newParams());
            e.put("oldMedianNs", c.oldMedianNs());
            e.put("newMedianNs", c.newMedianNs());
            e.put("speedup", c.speedup());
            e.put("slower", c.slower());
        }
        return o;
    }

    private static ObjectNode provenance(TableSnapshot t) {
        ObjectNode o = Protocol.JSON.createObjectNode();
        o.put("schema", t.schema());
        o.put("farmId", t.farmId());
        o.put("generatedAt", t.generatedAt());
        ArrayNode s = o.putArray("sweeps");
        t.sweeps().forEach(s::add);
        o.put("entries", t.rows().size());
        return o;
    }

    private static String params(JsonNode p) {
        List<String> parts = new ArrayList<>();
        p.fields().forEachRemaining(e -> parts.add(e.getKey() + "=" + e.getValue().asText()));
        parts.sort(null);
        return String.join(" ", parts);
    }

    private static String ms(double ns) {
        return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
    }

    private static String speedup(double s) {
        return String.format(Locale.ROOT, "%.2fx", s);
    }

    private static String percent(double t) {
        return String.format(Locale.ROOT, "%.1f%%", t * 100);
    }
}
