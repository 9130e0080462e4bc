package org.tunefarm.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.tunefarm.agent.harness.ThermalSettings;
import org.tunefarm.agent.kernels.command.CommandKernel;
import org.tunefarm.agent.kernels.command.CommandKernelReader;
import org.tunefarm.agent.link.LinkTls;
import org.tunefarm.agent.sensors.SensorsConfig;

/**
 * An agent's settings: from its config file ({@code --config}, YAML or JSON, see
 * {@code configs/agent.yaml}), then its command line, whose flags win.
 *
 * @param coordinators   bridge addresses to try in turn, {@code host:port}
 * @param agentId        stable across restarts, so a rebooted board carries on as itself
 * @param commandKernels kernels this board builds and runs itself; only the config file declares them
 * @param spaces         folder of Kernel Tuner cache files to serve as {@code replay.*} kernels; null for none
 * @param tls            TLS to the coordinators, or null for plain TCP
 * @param credentialFile where the agent keeps the credential it got when it enrolled (mode 0600);
 *                       by default {@code <state folder>/<id>.credential}
 * @param autoUpdate     the farm's HTTP address to fetch a newer agent jar from ({@code --auto-update URL}), or null
 * @param verbose        log the libraries' INFO lines too
 * @param sensors        where and which sensors to read (the file's {@code sensors:} section)
 * @param thermal        the config file's {@code thermal:} section: cooldown gate and throttle detection
 */
public record AgentConfig(List<String> coordinators, String token, String agentId, Map<String, String> labels,
                          List<CommandKernel> commandKernels, Path spaces, LinkTls tls, Path credentialFile,
                          URI autoUpdate, boolean verbose, SensorsConfig sensors, ThermalSettings thermal) {

    public AgentConfig {
        if (thermal == null) thermal = ThermalSettings.DEFAULTS;
    }

    /** Without command kernels, replayed spaces or TLS, the credential in the default state folder. */
    public AgentConfig(List<String> coordinators, String token, String agentId, Map<String, String> labels) {
        this(coordinators, token, agentId, labels, List.of(), null, null, credentialIn(defaultStateDir(), agentId), null, false, SensorsConfig.DEFAULT, null);
    }

    static final String USAGE = "usage: tunefarm agent [--config FILE] --coordinator HOST:PORT[,HOST:PORT...] [--token-file FILE] [--id ID] [--label KEY=VALUE]... [--spaces DIR]"
            + " [--tls] [--trust PEM-FILE] [--state DIR] [--credential-file FILE] [--auto-update FARM-URL] [--verbose]";
    private static final Set<String> FILE_FIELDS = Set.of("coordinators", "token", "tokenFile", "id", "labels", "commandKernels", "stateDir",
            "credentialFile", "autoUpdate", "sensors", "thermal");
    private static final Set<String> THERMAL_FIELDS = Set.of("startTemperatureC", "marginC", "cooldownTimeoutMs", "maxThrottleRetakes", "clockTolerance");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public static AgentConfig parse(String[] args) {
        List<String> coordinators = new ArrayList<>();
        String token = System.getenv("TUNEFARM_TOKEN");
        String id = null;
        Map<String, String> labels = new LinkedHashMap<>();
        List<CommandKernel> kernels = List.of();
        Path spaces = null;
        boolean tls = false;
        Path trust = null;
        Path stateDir = null;
        Path credentialFile = null;
        URI autoUpdate = null;
        boolean verbose = false;
        ThermalSettings thermal = ThermalSettings.DEFAULTS;
        SensorsConfig sensors = SensorsConfig.DEFAULT;
        // The file first, wherever --config stands, so every flag overrides it.
        for (int i = 0; i + 1 < args.length; i++) {
            if (!args[i].equals("--config")) continue;
            Path file = Path.of(args[i + 1]);
            JsonNode root = load(file);
            for (var it = root.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!FILE_FIELDS.contains(f)) throw new IllegalArgumentException(file + ": " + f + ": unknown field (known: " + new TreeSet<>(FILE_FIELDS) + ")");
            }
            for (JsonNode c : root.path("coordinators")) coordinators.add(address(c.asText(), file + ": coordinators"));
            if (root.hasNonNull("token") && !root.get("token").asText().isEmpty()) token = root.get("token").asText();
            if (root.hasNonNull("tokenFile")) token = readToken(file.toAbsolutePath().getParent().resolve(root.get("tokenFile").asText()), file + ": tokenFile");
            if (root.hasNonNull("id") && !root.get("id").asText().isBlank()) id = root.get("id").asText();
            if (root.hasNonNull("autoUpdate")) autoUpdate = farmUrl(root.get("autoUpdate").asText(), file + ": autoUpdate");
            root.path("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            Path base = file.toAbsolutePath().getParent();
            if (root.hasNonNull("stateDir") && !root.get("stateDir").asText().isBlank()) stateDir = base.resolve(root.get("stateDir").asText());
            if (root.hasNonNull("credentialFile") && !root.get("credentialFile").asText().isBlank()) credentialFile = base.resolve(root.get("credentialFile").asText());
            try {
                thermal = thermal(root.get("thermal"));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": " + e.getMessage());
            }
            try {
                kernels = CommandKernelReader.read(root.get("commandKernels"), base);
                sensors = SensorsConfig.read(root.get("sensors"), base);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": " + e.getMessage());
            }
        }
        List<String> flagCoordinators = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) throw new IllegalArgumentException(USAGE);
            if (a.equals("--tls")) {
                tls = true;
                continue;
            }
            if (a.equals("--verbose")) {
                verbose = true;
                continue;
            }
            if (i + 1 >= args.length) throw new IllegalArgumentException(a + " needs a value\n" + USAGE);
            String v = args[++i];
            switch (a) {
                case "--config" -> { } // read above
                case "--coordinator" -> {
                    for (String c : v.split(",")) flagCoordinators.add(address(c.trim(), "--coordinator"));
                }
                case "--token" -> token = v;
                case "--token-file" -> token = readToken(Path.of(v), "--token-file");
                case "--id" -> id = v;
                case "--label" -> {
                    int eq = v.indexOf('=');
                    if (eq <= 0) throw new IllegalArgumentException("--label: '" + v + "' is not KEY=VALUE");
                    labels.put(v.substring(0, eq), v.substring(eq + 1));
                }
                case "--auto-update" -> autoUpdate = farmUrl(v, "--auto-update");
                case "--trust" -> {
                    trust = Path.of(v);
                    tls = true;
                }
                case "--state" -> stateDir = Path.of(v);
                case "--credential-file" -> credentialFile = Path.of(v);
                case "--spaces" -> {
                    spaces = Path.of(v).toAbsolutePath().normalize();
                    if (!Files.isDirectory(spaces)) throw new IllegalArgumentException("--spaces: " + v + " is not a folder");
                }
                default -> throw new IllegalArgumentException("unknown option " + a + "\n" + USAGE);
            }
        }
        if (!flagCoordinators.isEmpty()) coordinators = flagCoordinators;
        if (coordinators.isEmpty()) throw new IllegalArgumentException("--coordinator is required\n" + USAGE);
        if (token == null || token.isEmpty()) throw new IllegalArgumentException("--token-file (or TUNEFARM_TOKEN) is required\n" + USAGE);
        if (id == null) id = defaultId();
        if (credentialFile == null) credentialFile = credentialIn(stateDir != null ? stateDir : defaultStateDir(), id);
        return new AgentConfig(List.copyOf(coordinators), token, id, Map.copyOf(labels), kernels, spaces, tls ? new LinkTls(trust) : null,
                credentialFile.toAbsolutePath().normalize(), autoUpdate, verbose, sensors, thermal);
    }

    /** The {@code thermal:} section; absent fields keep their defaults, and a bad one is named. */
    static ThermalSettings thermal(JsonNode n) {
        ThermalSettings d = ThermalSettings.DEFAULTS;
        if (n == null || n.isNull()) return d;
        if (!n.isObject()) throw new IllegalArgumentException("thermal: must be a mapping");
        for (var it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!THERMAL_FIELDS.contains(f)) throw new IllegalArgumentException("thermal." + f + ": unknown field (known: " + new TreeSet<>(THERMAL_FIELDS) + ")");
        }
        Double start = n.hasNonNull("startTemperatureC") ? Double.valueOf(number(n, "startTemperatureC")) : d.startTemperatureC();
        double margin = n.hasNonNull("marginC") ? number(n, "marginC") : d.marginC();
        long timeout = n.hasNonNull("cooldownTimeoutMs") ? (long) whole(n, "cooldownTimeoutMs") : d.cooldownTimeoutMs();
        int retakes = n.hasNonNull("maxThrottleRetakes") ? (int) whole(n, "maxThrottleRetakes") : d.maxThrottleRetakes();
        double tolerance = n.hasNonNull("clockTolerance") ? number(n, "clockTolerance") : d.clockTolerance();
        return new ThermalSettings(start, margin, timeout, retakes, tolerance);
    }

    private static double number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (!v.isNumber()) throw new IllegalArgumentException("thermal." + field + ": must be a number, got " + v);
        return v.doubleValue();
    }

    private static double whole(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (!v.isIntegralNumber() || !v.canConvertToLong()) throw new IllegalArgumentException("thermal." + field + ": must be a whole number, got " + v);
        return v.longValue();
    }

    /** One file per agent id, so several agents may share a state folder. */
    static Path credentialIn(Path stateDir, String agentId) {
        return stateDir.resolve(agentId + ".credential");
    }

    /**
     * systemd's {@code StateDirectory=} (the unit sets it: /var/lib/tunefarm-agent), else
     * {@code ~/.tunefarm/agent}: a folder that outlives the agent process and belongs to its user.
     */
    static Path defaultStateDir() {
        String systemd = System.getenv("STATE_DIRECTORY");
        if (systemd != null && !systemd.isBlank()) return Path.of(systemd.split(":")[0]);
        return Path.of(System.getProperty("user.home"), ".tunefarm", "agent");
    }

    private static JsonNode load(Path file) {
        try {
            JsonNode root = YAML.readTree(Files.readString(file));
            if (root == null || root.isNull() || root.isMissingNode()) return YAML.createObjectNode();
            if (!root.isObject()) throw new IllegalArgumentException(file + ": must be a mapping of settings");
            return root;
        } catch (IOException e) {
            throw new IllegalArgumentException("--config: cannot read " + file + ": " + e.getMessage());
        }
    }

    /**
     * The farm token from a file (its first line, trimmed), so a long-running agent never carries
     * the token in its argv, where {@code ps} would show it to every user of the board.
     */
    static String readToken(Path file, String field) {
        try {
            String t = Files.readString(file).strip();
            int nl = t.indexOf('\n');
            if (nl >= 0) t = t.substring(0, nl).strip();
            if (t.isEmpty()) throw new IllegalArgumentException(field + ": " + file + " is empty");
            return t;
        } catch (IOException e) {
            throw new IllegalArgumentException(field + ": cannot read " + file + ": " + e.getMessage());
        }
    }

    /** The farm's REST address, where it serves its agent jar: {@code http(s)://host:port}. */
    private static URI farmUrl(String v, String field) {
        try {
            URI u = new URI(v.endsWith("/") ? v.substring(0, v.length() - 1) : v);
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) throw new URISyntaxException(v, "not http(s)://HOST[:PORT]");
            return u;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(field + ": '" + v + "' is not the farm's http(s)://HOST:PORT address");
        }
    }

    private static String address(String c, String field) {
        if (!c.matches("[^:]+:\\d{1,5}")) throw new IllegalArgumentException(field + ": '" + c + "' is not HOST:PORT");
        return c;
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
