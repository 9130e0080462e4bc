package org.tunefarm.agent.kernels.command;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.tunefarm.protocol.Protocol;

/**
 * Reads the last line of stdout that is a JSON object, so a program may log before it reports.
 * Times must be finite and positive: a zero time is a broken timer, not a fast kernel.
 */
final class JsonOutput implements OutputFormat {

    @Override public Reading read(String stdout) {
        JsonNode o = lastObject(stdout);
        if (o == null) return Reading.failed("no JSON object line in the program's output");
        List<Double> times = new ArrayList<>();
        JsonNode one = o.get("time_ms");
        JsonNode many = o.get("times_ms");
        if (many != null && many.isArray()) {
            for (JsonNode t : many) {
                if (!t.isNumber()) return Reading.failed("times_ms holds " + t + ", not a number");
                times.add(t.doubleValue());
            }
        } else if (one != null && one.isNumber()) {
            times.add(one.doubleValue());
        } else {
            return Reading.failed("the output has neither time_ms (a number) nor times_ms (a list): " + o);
        }
        if (times.isEmpty()) return Reading.failed("times_ms is empty");
        for (double t : times) if (!(t > 0) || Double.isInfinite(t)) return Reading.failed("time " + t + " ms is not a positive finite number");
        JsonNode c = o.get("correct");
        if (c != null && !c.isNull() && !c.isBoolean()) return Reading.failed("correct must be true or false, got " + c);
        JsonNode e = o.get("max_error");
        Double maxError = e != null && e.isNumber() && e.doubleValue() >= 0 ? e.doubleValue() : null;
        return new Reading(times, c == null || c.isNull() ? null : c.booleanValue(), maxError, null);
    }

    private static JsonNode lastObject(String stdout) {
        String[] lines = stdout.split("\n");
        for (int i = lines.length - 1; i >= 0; i--) {
            String l = lines[i].strip();
            if (!l.startsWith("{")) continue;
            try {
                JsonNode n = Protocol.JSON.readTree(l);
                if (n != null && n.isObject()) return n;
            } catch (java.io.IOException notJson) {
                // keep looking upwards
            }
        }
        return null;
    }
}
