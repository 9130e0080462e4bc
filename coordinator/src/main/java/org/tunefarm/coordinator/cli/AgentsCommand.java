package org.tunefarm.coordinator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tunefarm agents}: the farm's agents, whether each is enrolled or revoked and whether it
 * is alive; {@code agents enroll ID} issues an agent a new credential, {@code agents revoke ID}
 * locks one out on every coordinator at once.
 */
@Command(name = "agents", description = "List the farm's agents; enroll or revoke one.", mixinStandardHelpOptions = true)
final class AgentsCommand implements Callable<Integer> {

    @Option(names = "--api", description = "The farm's REST address (default: ${DEFAULT-VALUE}).", defaultValue = "http://127.0.0.1:8080")
    String api;

    @Option(names = "--admin-token", description = "Admin token (default: $TUNEFARM_ADMIN_TOKEN); a read token lists too.")
    String adminToken = System.getenv("TUNEFARM_ADMIN_TOKEN");

    @Option(names = "--trust", description = "PEM certificate(s) to trust for an https:// farm (a CA or the coordinator's certificate).")
    Path trust;

    /** Lists every agent the farm knows: from its live list and its credentials. */
    @Override public Integer call() throws Exception {
        FarmClient farm = new FarmClient(api, adminToken, trust);
        Map<String, String[]> rows = new TreeMap<>();
        for (JsonNode a : farm.get("/api/agents")) {
            rows.put(a.path("agentId").asText(), new String[] {"-", a.path("alive").asBoolean() ? "alive" : "dead", a.path("deviceClass").asText("")});
        }
        for (JsonNode c : farm.get("/api/credentials")) {
            String[] r = rows.computeIfAbsent(c.path("agentId").asText(), k -> new String[] {"-", "-", ""});
            r[0] = c.path("state").asText() + " " + Instant.ofEpochMilli(c.path("at").asLong()) + " by " + c.path("by").asText();
        }
        System.out.printf("%-24s %-7s %-60s %s%n", "AGENT", "LINK", "CREDENTIAL", "DEVICE CLASS");
        rows.forEach((id, r) -> System.out.printf("%-24s %-7s %-60s %s%n", id, r[1], r[0], r[2]));
        return 0;
    }

    @Command(name = "enroll", description = "Issue a new credential for an agent id (replacing any earlier one; its connection closes)."
            + " Writes it to --out (mode 0600) for the agent's credential file, or prints it.")
    int enroll(@Parameters(paramLabel = "ID") String id,
               @Option(names = "--out", paramLabel = "FILE", description = "Write the credential here (mode 0600) instead of printing it.") Path out) throws Exception {
        JsonNode r = new FarmClient(api, adminToken, trust).post("/api/agents/" + id + "/enroll", "", "application/json");
        String credential = r.path("credential").asText();
        if (out == null) {
            System.out.println(credential);
            return 0;
        }
        Path tmp = out.toAbsolutePath().resolveSibling("." + out.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, credential + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("agent " + id + " enrolled; its credential is in " + out + " (give it to the agent as its credentialFile)");
        return 0;
    }

    @Command(name = "revoke", description = "Lock an agent out on every coordinator now, until it is enrolled again.")
    int revoke(@Parameters(paramLabel = "ID") String id) throws Exception {
        new FarmClient(api, adminToken, trust).post("/api/agents/" + id + "/revoke", "", "application/json");
        System.out.println("agent " + id + " revoked");
        return 0;
    }
}
