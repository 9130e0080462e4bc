package org.tunefarm.coordinator.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The table document as CSV, for spreadsheets and scripts: comment lines with the document's
 * schema, farm id, time and sweeps, a header row, then one row per entry. Fields are quoted as
 * RFC 4180 says (a field holding a comma, a quote, a line break, or starting with {@code #} so it
 * cannot pass for a comment, goes in double quotes, its quotes doubled), and rows end with CRLF.
 * A shape or a set of parameters is one field, {@code name=value} pairs joined by {@code ;} in name
 * order. An absent value (no default measured, no temperature sensor, no energy reading) is an
 * empty field, never 0. A latency entry's Pareto set of time and energy is in the JSON document only.
 * It reads the JSON document, so it writes any table document, served or read from a file.
 */
public final class TableCsv {
    /** The columns, in order. */
    public static final List<String> COLUMNS = List.of("deviceClass", "objective", "op", "dtype", "shape", "params", "defaultParams",
            "medianNs", "gflops", "speedupOverDefault", "temperatureC", "sweepId", "agentId", "measuredAt",
            "sustainedNs", "energyJ", "implementation");
    private static final String EOL = "\r\n";

    private TableCsv() {}

    /** The document ({@code tunefarm.table/2}) as CSV text. */
    public static String write(JsonNode document) {
        StringBuilder out = new StringBuilder();
        out.append("# schema: ").append(document.path("schema").asText()).append(EOL);
        out.append("# farmId: ").append(document.path("farmId").asText()).append(EOL);
        out.append("# generatedAt: ").append(document.path("generatedAt").asText()).append(EOL);
        List<String> sweeps = new ArrayList<>();
        document.path("sweeps").forEach(s -> sweeps.add(s.asText()));
        out.append("# sweeps: ").append(String.join(" ", sweeps)).append(EOL);
        row(out, COLUMNS);
        for (JsonNode e : document.path("entries")) {
            JsonNode kernel = e.path("kernel");
            row(out, List.of(text(e.path("deviceClass")), text(e.path("objective")), text(kernel.path("op")), text(kernel.path("dtype")),
                    pairs(kernel.path("shape")), pairs(e.path("params")), pairs(e.path("defaultParams")),
                    text(e.path("stats").path("medianNs")), text(e.path("gflops")), text(e.path("speedupOverDefault")),
                    text(e.path("temperatureC")), text(e.path("sweepId")), text(e.path("agentId")), text(e.path("measuredAt")),
                    text(e.path("sustainedNs")), text(e.path("energyJ")), text(e.path("implementation"))));
        }
        return out.toString();
    }

    private static void row(StringBuilder out, List<String> fields) {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) out.append(',');
            out.append(field(fields.get(i)));
        }
        out.append(EOL);
    }

    /** One field, quoted when it must be. */
    static String field(String s) {
        boolean quote = s.startsWith("#") || s.chars().anyMatch(c -> c == ',' || c == '"' || c == '\r' || c == '\n');
        return quote ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    /** A value's text; empty when absent or null. */
    private static String text(JsonNode n) {
        return n.isMissingNode() || n.isNull() ? "" : n.asText();
    }

    /** {@code name=value} pairs joined by {@code ;} in name order; empty when absent or null. */
    private static String pairs(JsonNode n) {
        if (!n.isObject()) return "";
        Map<String, String> sorted = new TreeMap<>();
        n.fields().forEachRemaining(f -> sorted.put(f.getKey(), text(f.getValue())));
        List<String> out = new ArrayList<>();
        sorted.forEach((k, v) -> out.add(k + "=" + v));
        return String.join(";", out);
    }
}
