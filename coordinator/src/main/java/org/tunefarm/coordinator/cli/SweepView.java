package org.tunefarm.coordinator.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import org.tunefarm.protocol.Protocol;

/** Sweeps as text for a terminal: the list, one sweep's status, and one search's progress bar. */
final class SweepView {
    static final int BAR = 30;

    private SweepView() {}

    static String json(JsonNode n) throws JsonProcessingException {
        return Protocol.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n);
    }

    static void list(JsonNode sweeps, PrintStream out) {
        if (sweeps.isEmpty()) out.println("(no sweeps)");
        for (JsonNode s : sweeps) {
            int measured = 0, budget = 0;
            boolean unbounded = false;
            for (JsonNode p : s.path("searches")) {
                measured += p.path("measured").asInt();
                budget += p.path("budget").asInt();
                unbounded |= p.path("budget").asInt() == 0;
            }
            out.printf("%-10s %-10s priority %-4d %-24s %s  %d/%s measured%n", s.path("id").asText(), s.path("state").asText(),
                    s.path("priority").asInt(), s.path("name").asText(), s.path("kernel").asText(), measured, unbounded ? "∞" : String.valueOf(budget));
        }
    }

    static void status(JsonNode s, PrintStream out) {
        out.printf("sweep %s (%s, %s): %s, priority %d, objective %s%n", s.path("id").asText(), s.path("name").asText(), s.path("kernel").asText(),
                s.path("state").asText(), s.path("priority").asInt(), objective(s.path("spec")));
        if (s.path("searches").isEmpty()) out.println("  no search yet: waiting for an agent of a targeted device class");
        for (JsonNode p : s.path("searches")) {
            out.println("  " + progress(p, null));
            if (p.hasNonNull("warning")) out.println("    warning: " + p.path("warning").asText());
        }
    }

    /** {@code latency}, or {@code sustained (30 s per finalist)}; a sweep from an older coordinator tunes for latency. */
    static String objective(JsonNode spec) {
        String o = spec.path("objective").asText("latency");
        double t = spec.path("sustainedSeconds").asDouble(0);
        return t > 0 ? o + " (" + (t == Math.rint(t) ? String.valueOf((long) t) : String.valueOf(t)) + " s per finalist)" : o;
    }

    /** One search: {@code class kernel [#####-----] measured/budget failed, pending, ETA}. */
    static String progress(JsonNode p, String eta) {
        int measured = p.path("measured").asInt();
        int budget = p.path("budget").asInt();
        boolean done = p.path("done").asBoolean();
        StringBuilder b = new StringBuilder();
        b.append(p.path("deviceClass").asText()).append("  ").append(p.path("kernel").asText()).append("  ");
        int filled = done ? BAR : budget > 0 ? (int) Math.min(BAR, (long) BAR * measured / budget) : 0;
        b.append('[').append("#".repeat(filled)).append("-".repeat(BAR - filled)).append("] ");
        b.append(measured).append('/').append(budget > 0 ? String.valueOf(budget) : "∞");
        b.append("  failed ").append(p.path("failed").asInt());
        if (p.path("throttled").asInt() > 0) b.append(" (throttled ").append(p.path("throttled").asInt()).append(')');
        b.append("  pending ").append(p.path("pending").asInt());
        if (done) b.append("  done");
        else if (eta != null) b.append("  ETA ").append(eta);
        return b.toString();
    }
}
