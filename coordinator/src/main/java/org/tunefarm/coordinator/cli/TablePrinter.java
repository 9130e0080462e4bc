package org.tunefarm.coordinator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.kernel.KernelSpecs;

/**
 * Renders a best-kernel table document as aligned text for a terminal: one row per winner, each
 * naming its objective; a figure the winning record lacks (no sustained run, no energy sensor, no
 * temperature sensor) is "n/a", never 0. A latency row counts the Pareto points of time and energy.
 */
final class TablePrinter {
    private TablePrinter() {}

    static void print(JsonNode doc, PrintStream out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"device class", "kernel", "shape", "objective", "best parameters", "median ms", "sustained ms", "GFLOP/s",
                "energy J/call", "speedup", "temp °C", "pareto"});
        for (JsonNode e : doc.path("entries")) {
            JsonNode k = e.path("kernel");
            String op = k.path("op").asText();
            rows.add(new String[] {
                    e.path("deviceClass").asText(), op, shape(op, k.path("shape")), e.path("objective").asText("latency"), params(e.path("params")),
                    String.format("%.3f", e.path("stats").path("medianNs").asDouble() / 1e6),
                    e.path("sustainedNs").isNumber() ? String.format("%.3f", e.path("sustainedNs").asDouble() / 1e6) : "n/a",
                    e.path("gflops").isNumber() ? String.format("%.1f", e.path("gflops").asDouble()) : "-",
                    e.path("energyJ").isNumber() ? String.format("%.3g", e.path("energyJ").asDouble()) : "n/a",
                    e.path("speedupOverDefault").isNumber() ? String.format("%.1fx", e.path("speedupOverDefault").asDouble()) : "n/a",
                    e.path("temperatureC").isNumber() ? String.format("%.0f", e.path("temperatureC").asDouble()) : "n/a",
                    e.path("pareto").isArray() && !e.path("pareto").isEmpty() ? e.path("pareto").size() + " points" : "-"});
        }
        int[] w = new int[rows.get(0).length];
        for (String[] r : rows) for (int i = 0; i < r.length; i++) w[i] = Math.max(w[i], r[i].length());
        for (String[] r : rows) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < r.length; i++) b.append(String.format("%-" + w[i] + "s", r[i])).append(i + 1 < r.length ? "  " : "");
            out.println(b.toString().stripTrailing());
        }
        if (rows.size() == 1) out.println("(no entries yet)");
    }

    private static String shape(String op, JsonNode shape) {
        List<String> dims;
        try {
            KernelSpec s = KernelSpecs.get(op);
            dims = s.dimensions();
        } catch (IllegalArgumentException e) {
            dims = new ArrayList<>();
            shape.fieldNames().forEachRemaining(dims::add);
        }
        List<String> parts = new ArrayList<>();
        for (String d : dims) parts.add(d + "=" + shape.path(d).asText());
        return String.join(",", parts);
    }

    private static String params(JsonNode p) {
        List<String> parts = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
            var e = it.next();
            parts.add(e.getKey() + "=" + e.getValue().asText());
        }
        return String.join(" ", parts);
    }
}
