package org.tunefarm.coordinator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code tunefarm sweep watch ID}: polls the sweep once per interval and shows a progress bar per
 * search with an ETA from the rate seen since watching began. In a terminal the bars are redrawn
 * in place; otherwise (a pipe, a log) a search's line is printed only when it changes, and with
 * {@code --json} each change is printed as the sweep's JSON on one line. Ends when the sweep does:
 * 0 when done, 3 when cancelled.
 */
final class SweepWatch {
    static final int CANCELLED = 3;

    private final FarmClient client;
    private final String id;
    private final PrintStream out;
    private final boolean terminal;
    private final boolean json;
    private final long intervalMs;
    /** Per search: when it was first seen and how many it had measured then. */
    private final Map<String, long[]> start = new HashMap<>();
    private final Map<String, String> shown = new HashMap<>();
    private int drawn;

    SweepWatch(FarmClient client, String id, PrintStream out, boolean terminal, boolean json, long intervalMs) {
        this.client = client;
        this.id = id;
        this.out = out;
        this.terminal = terminal && !json;
        this.json = json;
        this.intervalMs = Math.max(100, intervalMs);
    }

    /** Whether standard output is a terminal (Java 22's Console.isTerminal where there is one). */
    static boolean terminal() {
        java.io.Console c = System.console();
        if (c == null) return false;
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException olderJava) {
            return true; // before 22, a console exists only for a terminal
        }
    }

    int run() throws Exception {
        String lastJson = "";
        while (true) {
            JsonNode s = client.get("/api/sweeps/" + id);
            long now = System.currentTimeMillis();
            if (json) {
                String line = s.toString();
                if (!line.equals(lastJson)) out.println(line);
                lastJson = line;
            } else {
                draw(s, now);
            }
            String state = s.path("state").asText();
            if (state.equals("done")) return 0;
            if (state.equals("cancelled")) return CANCELLED;
            Thread.sleep(intervalMs);
        }
    }

    private void draw(JsonNode s, long now) {
        List<String> lines = new ArrayList<>();
        lines.add("sweep " + s.path("id").asText() + " (" + s.path("name").asText() + "): " + s.path("state").asText()
                + ", priority " + s.path("priority").asInt());
        for (JsonNode p : s.path("searches")) lines.add("  " + SweepView.progress(p, eta(p, now)));
        if (terminal) {
            StringBuilder b = new StringBuilder();
            if (drawn > 0) b.append("\033[").append(drawn).append('F'); // back to the first line drawn
            for (String l : lines) b.append("\033[2K").append(l).append('\n');
            out.print(b);
            out.flush();
            drawn = lines.size();
            return;
        }
        // Plain: a line when it changed, without the ETA (it changes every second).
        for (int i = 0; i < lines.size(); i++) {
            String key = i == 0 ? "" : keyOf(s.path("searches").get(i - 1));
            String plain = i == 0 ? lines.get(0) : "  " + SweepView.progress(s.path("searches").get(i - 1), null);
            if (!plain.equals(shown.put(key, plain))) out.println(plain);
        }
    }

    private static String keyOf(JsonNode p) {
        return p.path("deviceClass").asText() + " " + p.path("kernel").asText();
    }

    /** Remaining over the rate since first seen; "?" until something was measured meanwhile. */
    String eta(JsonNode p, long now) {
        int measured = p.path("measured").asInt();
        int budget = p.path("budget").asInt();
        long[] first = start.computeIfAbsent(keyOf(p), k -> new long[] {now, measured});
        return eta(budget - measured, measured - first[1], now - first[0], budget > 0);
    }

    static String eta(long remaining, long done, long elapsedMs, boolean bounded) {
        if (!bounded || done <= 0 || elapsedMs <= 0) return "?";
        long seconds = Math.max(0, Math.round(remaining * (elapsedMs / 1000.0) / done));
        return seconds >= 3600 ? String.format("%dh%02dm", seconds / 3600, seconds / 60 % 60)
                : String.format("%dm%02ds", seconds / 60, seconds % 60);
    }
}
