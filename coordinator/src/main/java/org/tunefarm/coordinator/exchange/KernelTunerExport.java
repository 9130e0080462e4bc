package org.tunefarm.coordinator.exchange;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.tunefarm.protocol.Protocol;

/**
 * The table as Kernel Tuner cache files, so Kernel Tuner users read our results with their own
 * tools: one cache per (device class, kernel), as Kernel Tuner keeps one per device, kernel and
 * problem size. Each holds the winner and, when the table carries them, the family default's
 * parameters with the default's time; only {@code latency} entries go in (Kernel Tuner's
 * objective is {@code time}).
 *
 * <p>Fields as Kernel Tuner writes them: {@code device_name} (the class's CPU model when the
 * table carries its profile, else the device class), {@code kernel_name} (the op),
 * {@code problem_size} (the shape's sizes in dimension-name order), {@code tune_params_keys}
 * (sorted), {@code tune_params} (each parameter's values among the entries written),
 * {@code objective} {@code "time"}, and {@code cache}: per configuration, keyed by the
 * comma-joined values as Python's {@code str} prints them, the parameter values, {@code time}
 * (the farm's median in ms), {@code GFLOP/s} when known and {@code timestamp}. {@code times} is
 * absent: the farm keeps each measurement's statistics, not its samples. A {@code tunefarm}
 * object says where the cache came from (farm, class, kernel with its dimension names, sweeps),
 * which Kernel Tuner ignores and {@code tunefarm table import} reads back.
 */
public final class KernelTunerExport {
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSxxx").withZone(ZoneOffset.UTC);

    private KernelTunerExport() {}

    /** One cache file: a suggested file name and its JSON. */
    public record Cache(String fileName, String deviceClass, String kernelId, ObjectNode json) {}

    /** Every (device class, kernel) of the table's latency entries, in class then kernel order. */
    public static List<Cache> caches(TableSnapshot t) {
        List<TableSnapshot.Row> rows = new ArrayList<>(t.rows().stream().filter(r -> r.objective().equals(TableSnapshot.LATENCY)).toList());
        rows.sort(Comparator.comparing(TableSnapshot.Row::deviceClass).thenComparing(TableSnapshot.Row::kernelId));
        Map<String, Cache> out = new LinkedHashMap<>();
        for (TableSnapshot.Row r : rows) out.putIfAbsent(r.slot(), cache(t, r));
        return List.copyOf(out.values());
    }

    static Cache cache(TableSnapshot t, TableSnapshot.Row r) {
        ObjectNode c = Protocol.JSON.createObjectNode();
        c.put("device_name", t.cpuModels().getOrDefault(r.deviceClass(), r.deviceClass()));
        c.put("kernel_name", r.op());
        ArrayNode size = c.putArray("problem_size");
        r.shape().values().forEach(size::add);
        List<String> keys = new ArrayList<>(new TreeSet<>(names(r.params())));
        ArrayNode keyArray = c.putArray("tune_params_keys");
        keys.forEach(keyArray::add);
        boolean withDefault = r.defaultParams() != null && r.defaultMedianNs() != null && new TreeSet<>(names(r.defaultParams())).equals(new TreeSet<>(keys))
                && !r.defaultParams().equals(r.params());
        ObjectNode domains = c.putObject("tune_params");
        for (String k : keys) {
            List<JsonNode> values = new ArrayList<>(List.of(r.params().get(k)));
            if (withDefault && !values.contains(r.defaultParams().get(k))) values.add(r.defaultParams().get(k));
            values.sort(KernelTunerExport::compare);
            ArrayNode d = domains.putArray(k);
            values.forEach(d::add);
        }
        c.put("objective", "time");
        ObjectNode cache = c.putObject("cache");
        config(cache, keys, r.params(), r.medianNs(), r.gflops(), r.measuredAt());
        if (withDefault) {
            Double gflops = r.gflops() == null ? null : r.gflops() * r.medianNs() / r.defaultMedianNs();
            config(cache, keys, r.defaultParams(), r.defaultMedianNs(), gflops, r.measuredAt());
        }
        ObjectNode from = c.putObject("tunefarm");
        from.put("schema", t.schema());
        from.put("farmId", t.farmId());
        from.put("generatedAt", t.generatedAt());
        from.put("deviceClass", r.deviceClass());
        from.put("objective", r.objective());
        ObjectNode kernel = from.putObject("kernel");
        kernel.put("op", r.op());
        ObjectNode shape = kernel.putObject("shape");
        r.shape().forEach(shape::put);
        kernel.put("dtype", r.dtype());
        ArrayNode sweeps = from.putArray("sweeps");
        if (r.sweepId() != null) sweeps.add(r.sweepId());
        String file = (r.op() + "_" + String.join("x", r.shape().values().stream().map(String::valueOf).toList()) + "_" + r.dtype() + "_" + r.deviceClass())
                .replaceAll("[^A-Za-z0-9._-]", "_") + ".json";
        return new Cache(file, r.deviceClass(), r.kernelId(), c);
    }

    private static void config(ObjectNode cache, List<String> keys, JsonNode params, double medianNs, Double gflops, long at) {
        List<String> key = new ArrayList<>();
        for (String k : keys) key.add(python(params.get(k)));
        ObjectNode e = cache.putObject(String.join(",", key));
        for (String k : keys) e.set(k, params.get(k));
        e.put("time", medianNs / 1e6);
        if (gflops != null) e.put("GFLOP/s", gflops);
        if (at > 0) e.put("timestamp", TIMESTAMP.format(Instant.ofEpochMilli(at)));
    }

    /** A value as Python's {@code str} prints it, which is how Kernel Tuner joins a configuration's key. */
    static String python(JsonNode v) {
        if (v.isBoolean()) return v.asBoolean() ? "True" : "False";
        if (v.isNull()) return "None";
        return v.asText();
    }

    private static List<String> names(JsonNode o) {
        List<String> out = new ArrayList<>();
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) out.add(it.next());
        return out;
    }

    /** Numbers by value, before anything else by text: a domain reads in order. */
    private static int compare(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) return Double.compare(a.asDouble(), b.asDouble());
        if (a.isNumber() != b.isNumber()) return a.isNumber() ? -1 : 1;
        return a.asText().compareTo(b.asText());
    }
}
