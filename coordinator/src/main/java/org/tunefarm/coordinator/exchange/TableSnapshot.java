package org.tunefarm.coordinator.exchange;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.tunefarm.protocol.Protocol;

/**
 * A best-kernel table document as its consumers read it: schema {@code tunefarm.table/1}
 * (entries only) or {@code /2} (farm id, time, sweeps, class profiles, objective and default
 * parameters per entry). Unknown fields are ignored, so a later schema still reads; what a
 * consumer needs and is missing or malformed is refused with the field's path.
 *
 * @param schema      the document's {@code schema}
 * @param farmId      the farm's id, or null (schema /1)
 * @param generatedAt epoch ms when the farm made it, or null (schema /1)
 * @param sweeps      the sweep ids its entries came from (from {@code sweeps}, else from the entries)
 * @param cpuModels   device class → its CPU model, for the classes whose profile the table carries
 * @param rows        the entries, in document order
 */
public record TableSnapshot(String schema, String farmId, Long generatedAt, List<String> sweeps, Map<String, String> cpuModels, List<Row> rows) {

    /** The objective of entries written before objectives existed. */
    public static final String LATENCY = "latency";

    /**
     * One entry.
     *
     * @param shape           dimension name → size, sorted by name (as {@code KernelKey} keeps it)
     * @param params          the winner's parameters as JSON values
     * @param defaultParams   the family default's parameters, or null when unknown
     * @param defaultMedianNs the default's median, or null when it was not measured
     */
    public record Row(String deviceClass, String objective, String op, Map<String, Long> shape, String dtype, ObjectNode params,
                      ObjectNode defaultParams, double medianNs, Double defaultMedianNs, Double gflops, String sweepId, long measuredAt) {

        /** The kernel's id, {@code gemm[K=512,M=512,N=512]:fp32}, as {@code KernelKey.id()} writes it. */
        public String kernelId() {
            return op + shape.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(",", "[", "]")) + ":" + dtype;
        }

        /** What identifies the entry across two tables: class, objective and kernel. */
        public String slot() {
            return deviceClass + "|" + objective + "|" + kernelId();
        }
    }

    /** Thrown for a document a consumer cannot use; the message names the field. */
    public static final class Unreadable extends IOException {
        public Unreadable(String message) {
            super(message);
        }
    }

    public static TableSnapshot read(Path file) throws IOException {
        JsonNode doc;
        try {
            doc = Protocol.JSON.readTree(Files.readString(file));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new Unreadable(file + ": not JSON: " + e.getOriginalMessage());
        }
        try {
            return of(doc);
        } catch (Unreadable e) {
            throw new Unreadable(file + ": " + e.getMessage());
        }
    }

    public static TableSnapshot of(JsonNode doc) throws Unreadable {
        if (doc == null || !doc.isObject()) throw new Unreadable("not a table document (expected a JSON object)");
        String schema = doc.path("schema").asText("");
        if (!schema.startsWith("tunefarm.table/")) throw new Unreadable("schema: expected tunefarm.table/1 or /2, got '" + schema + "'");
        JsonNode entries = doc.get("entries");
        if (entries == null || !entries.isArray()) throw new Unreadable("entries: missing or not an array");
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) rows.add(row(entries.get(i), "entries[" + i + "]"));
        Map<String, String> cpuModels = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = doc.path("classes").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> c = it.next();
            if (c.getValue().path("cpuModel").isTextual()) cpuModels.put(c.getKey(), c.getValue().path("cpuModel").asText());
        }
        List<String> sweeps = new ArrayList<>();
        if (doc.path("sweeps").isArray()) doc.path("sweeps").forEach(s -> sweeps.add(s.asText()));
        else rows.stream().map(Row::sweepId).filter(s -> s != null).distinct().sorted().forEach(sweeps::add);
        String farmId = doc.path("farmId").isTextual() ? doc.path("farmId").asText() : null;
        Long generatedAt = doc.path("generatedAt").isIntegralNumber() ? doc.path("generatedAt").asLong() : null;
        return new TableSnapshot(schema, farmId, generatedAt, List.copyOf(sweeps), Collections.unmodifiableMap(cpuModels), List.copyOf(rows));
    }

    private static Row row(JsonNode e, String f) throws Unreadable {
        if (!e.isObject()) throw new Unreadable(f + ": not an object");
        String deviceClass = text(e, "deviceClass", f);
        JsonNode k = e.path("kernel");
        String op = text(k, "op", f + ".kernel");
        String dtype = text(k, "dtype", f + ".kernel");
        if (!k.path("shape").isObject()) throw new Unreadable(f + ".kernel.shape: missing or not an object");
        Map<String, Long> shape = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = k.path("shape").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> d = it.next();
            if (!d.getValue().isIntegralNumber() || !d.getValue().canConvertToLong()) {
                throw new Unreadable(f + ".kernel.shape." + d.getKey() + ": not an integer");
            }
            shape.put(d.getKey(), d.getValue().asLong());
        }
        if (!e.path("params").isObject()) throw new Unreadable(f + ".params: missing or not an object");
        JsonNode median = e.path("stats").path("medianNs");
        if (!median.isNumber() || !(median.asDouble() > 0) || Double.isInfinite(median.asDouble())) {
            throw new Unreadable(f + ".stats.medianNs: missing or not a positive number");
        }
        String objective = e.path("objective").isTextual() ? e.path("objective").asText() : LATENCY;
        ObjectNode defaults = e.path("defaultParams").isObject() ? (ObjectNode) e.get("defaultParams") : null;
        Double defaultMedian = positive(e.path("defaultMedianNs"));
        Double gflops = positive(e.path("gflops"));
        String sweepId = e.path("sweepId").isTextual() ? e.path("sweepId").asText() : null;
        return new Row(deviceClass, objective, op, Collections.unmodifiableMap(shape), dtype, (ObjectNode) e.get("params"), defaults,
                median.asDouble(), defaultMedian, gflops, sweepId, e.path("measuredAt").asLong(0));
    }

    private static String text(JsonNode n, String field, String f) throws Unreadable {
        JsonNode v = n.path(field);
        if (!v.isTextual() || v.asText().isEmpty()) throw new Unreadable(f + "." + field + ": missing or not a non-empty string");
        return v.asText();
    }

    private static Double positive(JsonNode n) {
        return n.isNumber() && n.asDouble() > 0 && Double.isFinite(n.asDouble()) ? n.asDouble() : null;
    }

    /** The rows keyed by {@link Row#slot()}; the first of a repeated slot wins. */
    public Map<String, Row> bySlot() {
        Map<String, Row> out = new LinkedHashMap<>();
        for (Row r : rows) out.putIfAbsent(r.slot(), r);
        return out;
    }
}
