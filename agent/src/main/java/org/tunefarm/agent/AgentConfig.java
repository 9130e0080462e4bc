package org.tunefarm.agent;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunefarm.agent.link.LinkTls;

/**
 * An agent's settings, from its command line.
 *
 * @param coordinators bridge addresses to try in turn, {@code host:port}
 * @param agentId      stable across restarts, so a rebooted board carries on as itself
 * @param tls          TLS to the coordinators, or null for plain TCP
 */
public record AgentConfig(List<String> coordinators, String token, String agentId, Map<String, String> labels, LinkTls tls) {

    static final String USAGE = "usage: tunefarm agent --coordinator HOST:PORT[,HOST:PORT...] --token TOKEN [--id ID] [--label KEY=VALUE]..."
            + " [--tls] [--trust PEM-FILE]";

    public AgentConfig(List<String> coordinators, String token, String agentId, Map<String, String> labels) {
        this(coordinators, token, agentId, labels, null);
    }

    public static AgentConfig parse(String[] args) {
        List<String> coordinators = new ArrayList<>();
        String token = System.getenv("TUNEFARM_TOKEN");
        String id = null;
        Map<String, String> labels = new LinkedHashMap<>();
        boolean tls = false;
        Path trust = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) throw new IllegalArgumentException(USAGE);
            if (a.equals("--tls")) {
                tls = true;
                continue;
            }
            if (i + 1 >= args.length) throw new IllegalArgumentException(a + " needs a value\n" + USAGE);
            String v = args[++i];
            switch (a) {
                case "--coordinator" -> {
                    for (String c : v.split(",")) {
                        if (!c.matches("[^:]+:\\d{1,5}")) throw new IllegalArgumentException("--coordinator: '" + c + "' is not HOST:PORT");
                        coordinators.add(c.trim());
                    }
                }
                case "--token" -> token = v;
                case "--id" -> id = v;
                case "--trust" -> {
                    trust = Path.of(v);
                    tls = true;
                }
                case "--label" -> {
                    int eq = v.indexOf('=');
                    if (eq <= 0) throw new IllegalArgumentException("--label: '" + v + "' is not KEY=VALUE");
                    labels.put(v.substring(0, eq), v.substring(eq + 1));
                }
                default -> throw new IllegalArgumentException("unknown option " + a + "\n" + USAGE);
            }
        }
        if (coordinators.isEmpty()) throw new IllegalArgumentException("--coordinator is required\n" + USAGE);
        if (token == null || token.isEmpty()) throw new IllegalArgumentException("--token (or TUNEFARM_TOKEN) is required\n" + USAGE);
        if (id == null) id = defaultId();
        return new AgentConfig(List.copyOf(coordinators), token, id, Map.copyOf(labels), tls ? new LinkTls(trust) : null);
    }

    /** Host name: stable across restarts of the same board. */
    private static String defaultId() {
        String h = System.getenv("HOSTNAME");
        if (h == null || h.isBlank()) {
            try {
                h = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                h = "agent";
            }
        }
        return h.replaceAll("[^A-Za-z0-9._:-]", "-");
    }
}
