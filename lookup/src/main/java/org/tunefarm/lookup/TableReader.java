package org.tunefarm.lookup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads a {@code tunefarm.table/2} document into rows and class profiles, checking the type of
 * every field it uses and ignoring every field it does not know (forward compatibility).
 */
final class TableReader {

    static final String SCHEMA = "tunefarm.table/2";
    /** More dimensions than any kernel has; keeps the distance's products within a double's range. */
    static final int MAX_DIMENSIONS = 32;

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private TableReader() {}

    static Table read(InputStream in) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(in);
        } catch (JsonProcessingException e) {
            throw new TableFormatException("document", "not JSON: " + e.getOriginalMessage() + " at line " + e.getLocation().getLineNr());
        }
        if (root == null || root.isMissingNode()) throw new TableFormatException("document", "empty");
        if (!root.isObject()) throw new TableFormatException("document", "expected a JSON object, got " + root.getNodeType());
        JsonNode schema = root.get("schema");
        if (schema == null || !SCHEMA.equals(schema.asText(null))) {
            String got = schema == null ? "no schema field" : schema.toString();
            String hint = schema != null && "tunefarm.table/1".equals(schema.asText()) ? " (a /1 document has no objectives and no default parameters: export the table again from a current farm)" : "";
            throw new TableFormatException("schema", "expected \"" + SCHEMA + "\", got " + got + hint);
        }
        Map<String, ClassProfile> classes = classes(root.get("classes"));
        JsonNode entries = root.get("entries");
        if (entries == null || !entries.isArray()) throw new TableFormatException("entries", "expected an array");
        List<Row> rows = new ArrayList<>(entries.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            Row row = row(entries.get(i), "entries[" + i + "]");
            if (!seen.add(row.deviceClass() + '\u0000' + row.kernelId() + '\u0000' + row.objective())) {
                throw new TableFormatException("entries[" + i + "]", "a second entry for device class " + row.deviceClass() + ", " + row.kernelId() + ", objective " + row.objective());
            }
            rows.add(row);
        }
        List<String> sweeps = new ArrayList<>();
        JsonNode s = root.get("sweeps");
        if (s != null && !s.isNull()) {
            if (!s.isArray()) throw new TableFormatException("sweeps", "expected an array of sweep ids");
            for (int i = 0; i < s.size(); i++) sweeps.add(text(s.get(i), "sweeps[" + i + "]"));
        }
        return new Table(optText(root, "farmId", ""), optLong(root, "generatedAt", ""), sweeps, classes, rows);
    }

    private static Map<String, ClassProfile> classes(JsonNode node) {
        Map<String, ClassProfile> out = new TreeMap<>();
        if (node == null || node.isNull()) return out;
        if (!node.isObject()) throw new TableFormatException("classes", "expected an object of device class -> profile");
        for (var e : node.properties()) {
            String at = "classes." + e.getKey();
            JsonNode p = e.getValue();
            if (!p.isObject()) throw new TableFormatException(at, "expected an object");
            JsonNode vb = p.get("vectorBits");
            out.put(e.getKey(), new ClassProfile(e.getKey(),
                    optText(p, "cpuModel", at), optText(p, "microarchitecture", at),
                    (int) optLong(p, "physicalCores", at), (int) optLong(p, "logicalCores", at),
                    optText(p, "os", at), optText(p, "arch", at), optText(p, "jvmVendor", at),
                    (int) optLong(p, "jvmMajor", at),
                    vb == null || vb.isNull() ? Device.UNKNOWN : (int) optLong(p, "vectorBits", at),
                    optText(p, "isa", at)));
        }
        return out;
    }

    private static Row row(JsonNode e, String at) {
        if (e == null || !e.isObject()) throw new TableFormatException(at, "expected an object");
        String deviceClass = text(e.get("deviceClass"), at + ".deviceClass");
        String objective = text(e.get("objective"), at + ".objective");
        JsonNode kernel = e.get("kernel");
        if (kernel == null || !kernel.isObject()) throw new TableFormatException(at + ".kernel", "expected an object with op, shape and dtype");
        String op = text(kernel.get("op"), at + ".kernel.op");
        String dtype = text(kernel.get("dtype"), at + ".kernel.dtype");
        Map<String, Integer> shape = shape(kernel.get("shape"), at + ".kernel.shape");
        StringBuilder id = new StringBuilder(op).append('[');
        shape.forEach((k, v) -> id.append(id.charAt(id.length() - 1) == '[' ? "" : ",").append(k).append('=').append(v));
        id.append("]:").append(dtype);
        Map<String, Object> params = params(e.get("params"), at + ".params", false);
        Map<String, Object> defaults = params(e.get("defaultParams"), at + ".defaultParams", true);
        JsonNode stats = e.get("stats");
        double median = Double.NaN;
        if (stats != null && !stats.isNull()) {
            if (!stats.isObject()) throw new TableFormatException(at + ".stats", "expected an object");
            median = optDouble(stats, "medianNs", at + ".stats");
        }
        return new Row(deviceClass, objective, op, dtype, shape, id.toString(), params, defaults, median,
                optDouble(e, "gflops", at), optDouble(e, "speedupOverDefault", at),
                optText(e, "agentId", at), optText(e, "sweepId", at), optLong(e, "measuredAt", at),
                optDouble(e, "defaultMedianNs", at), optLong(e, "defaultMeasuredAt", at));
    }

    private static Map<String, Integer> shape(JsonNode node, String at) {
        if (node == null || !node.isObject() || node.isEmpty()) throw new TableFormatException(at, "expected an object of dimension -> size with at least one dimension");
        if (node.size() > MAX_DIMENSIONS) throw new TableFormatException(at, "at most " + MAX_DIMENSIONS + " dimensions, got " + node.size());
        Map<String, Integer> out = new TreeMap<>();
        for (var d : node.properties()) {
            JsonNode v = d.getValue();
            if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 0) {
                throw new TableFormatException(at + "." + d.getKey(), "expected a non-negative integer, got " + v);
            }
            out.put(d.getKey(), v.intValue());
        }
        return Collections.unmodifiableMap(out);
    }

    private static Map<String, Object> params(JsonNode node, String at, boolean nullable) {
        if (node == null || node.isNull()) {
            if (nullable) return null;
            throw new TableFormatException(at, "missing: every entry carries its winner's parameters");
        }
        if (!node.isObject()) throw new TableFormatException(at, "expected an object of parameter -> value");
        @SuppressWarnings("unchecked")
        Map<String, Object> out = (Map<String, Object>) value(node);
        return out;
    }

    /** JSON as plain Java values: Integer where an integer fits, else Long or Double; read-only containers. */
    private static Object value(JsonNode v) {
        if (v.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (var f : v.properties()) {
                m.put(f.getKey(), value(f.getValue()));
            }
            return Collections.unmodifiableMap(m);
        }
        if (v.isArray()) {
            List<Object> l = new ArrayList<>(v.size());
            for (JsonNode x : v) l.add(value(x));
            return Collections.unmodifiableList(l);
        }
        if (v.isIntegralNumber()) return v.canConvertToInt() ? (Object) v.intValue() : v.canConvertToLong() ? (Object) v.longValue() : (Object) v.doubleValue();
        if (v.isNumber()) return v.doubleValue();
        if (v.isBoolean()) return v.booleanValue();
        if (v.isNull()) return null;
        return v.asText();
    }

    private static String text(JsonNode v, String at) {
        if (v == null || v.isNull()) throw new TableFormatException(at, "missing");
        if (!v.isTextual() || v.asText().isEmpty()) throw new TableFormatException(at, "expected a non-empty string, got " + v);
        return v.asText();
    }

    private static String optText(JsonNode parent, String name, String at) {
        JsonNode v = parent.get(name);
        if (v == null || v.isNull()) return null;
        if (!v.isTextual()) throw new TableFormatException(field(at, name), "expected a string, got " + v);
        return v.asText();
    }

    private static double optDouble(JsonNode parent, String name, String at) {
        JsonNode v = parent.get(name);
        if (v == null || v.isNull()) return Double.NaN;
        if (!v.isNumber()) throw new TableFormatException(field(at, name), "expected a number, got " + v);
        return v.doubleValue();
    }

    private static long optLong(JsonNode parent, String name, String at) {
        JsonNode v = parent.get(name);
        if (v == null || v.isNull()) return 0;
        if (!v.isIntegralNumber() || !v.canConvertToLong()) throw new TableFormatException(field(at, name), "expected an integer, got " + v);
        return v.longValue();
    }

    private static String field(String at, String name) {
        return at.isEmpty() ? name : at + "." + name;
    }
}
