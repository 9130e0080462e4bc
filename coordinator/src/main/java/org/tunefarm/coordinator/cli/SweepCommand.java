package org.tunefarm.coordinator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;

/** {@code tunefarm sweep start|list|status|watch|pause|resume|cancel|priority} against a running farm. */
@Command(name = "sweep", description = "Start, watch and steer sweeps on a running farm.", mixinStandardHelpOptions = true)
final class SweepCommand {

    @Mixin
    FarmOptions farm;

    @Option(names = "--admin-token", scope = ScopeType.INHERIT,
            description = "Admin token for writes; reads take it too (default: $TUNEFARM_ADMIN_TOKEN).")
    String adminToken = System.getenv("TUNEFARM_ADMIN_TOKEN");

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print the farm's JSON answer instead of text.")
    boolean json;

    private FarmClient client() {
        return new FarmClient(farm.api, adminToken, farm.trust);
    }

    @Command(name = "start", description = "Submit a sweep spec (YAML or JSON) and print its id.")
    int start(@Parameters(paramLabel = "FILE") Path file) throws Exception {
        JsonNode r = client().post("/api/sweeps", Files.readString(file), file.toString().endsWith(".json") ? "application/json" : "application/yaml");
        System.out.println(json ? SweepView.json(r) : r.path("id").asText());
        return 0;
    }

    @Command(name = "list", description = "List the farm's sweeps.")
    int list() throws Exception {
        JsonNode r = client().get("/api/sweeps");
        if (json) System.out.println(SweepView.json(r));
        else SweepView.list(r, System.out);
        return 0;
    }

    @Command(name = "status", description = "Show a sweep's state and its progress per (device class, shape).")
    int status(@Parameters(paramLabel = "ID") String id) throws Exception {
        JsonNode r = client().get("/api/sweeps/" + id);
        if (json) System.out.println(SweepView.json(r));
        else SweepView.status(r, System.out);
        return 0;
    }

    @Command(name = "watch", description = "Progress bars per search with an ETA until the sweep ends (plain lines when not a terminal).")
    int watch(@Parameters(paramLabel = "ID") String id,
              @Option(names = "--interval", defaultValue = "1", description = "Seconds between updates (default: ${DEFAULT-VALUE}).") double interval,
              @Option(names = "--plain", description = "Plain lines even in a terminal.") boolean plain) throws Exception {
        return new SweepWatch(client(), id, System.out, !plain && SweepWatch.terminal(), json, (long) (interval * 1000)).run();
    }

    @Command(name = "pause", description = "No new leases for this sweep; leases out stop at their next report.")
    int pause(@Parameters(paramLabel = "ID") String id) throws Exception {
        return control(id, "pause", null);
    }

    @Command(name = "resume", description = "Lease a paused sweep again.")
    int resume(@Parameters(paramLabel = "ID") String id) throws Exception {
        return control(id, "resume", null);
    }

    @Command(name = "cancel", description = "End a sweep for good; what was measured is kept.")
    int cancel(@Parameters(paramLabel = "ID") String id) throws Exception {
        return control(id, "cancel", null);
    }

    @Command(name = "priority", description = "Set a sweep's priority: among sweeps sharing agents, higher leases first.")
    int priority(@Parameters(index = "0", paramLabel = "ID") String id, @Parameters(index = "1", paramLabel = "N") int priority) throws Exception {
        return control(id, "priority", priority);
    }

    private int control(String id, String action, Integer priority) throws Exception {
        String body = priority == null ? "{}" : "{\"priority\": " + priority + "}";
        JsonNode r = client().post("/api/sweeps/" + id + "/" + action, body, "application/json");
        if (json) System.out.println(SweepView.json(r));
        else System.out.println("sweep " + r.path("id").asText() + ": " + r.path("state").asText() + ", priority " + r.path("priority").asInt());
        return 0;
    }
}
