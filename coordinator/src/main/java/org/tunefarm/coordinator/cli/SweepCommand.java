package org.tunefarm.coordinator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.tunefarm.protocol.Protocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tunefarm sweep start FILE} and {@code tunefarm sweep status ID} against a running farm. */
@Command(name = "sweep", description = "Start a sweep or show its status on a running farm.", mixinStandardHelpOptions = true)
final class SweepCommand {

    @Option(names = "--api", description = "The farm's REST address (default: ${DEFAULT-VALUE}).", defaultValue = "http://127.0.0.1:8080")
    String api;

    @Option(names = "--admin-token", description = "Admin token for writes (default: $TUNEFARM_ADMIN_TOKEN).")
    String adminToken = System.getenv("TUNEFARM_ADMIN_TOKEN");

    @Option(names = "--trust", description = "PEM certificate(s) to trust for an https:// farm (a CA or the coordinator's certificate).")
    Path trust;

    @Command(name = "start", description = "Submit a sweep spec (YAML or JSON) and print its id.")
    int start(@Parameters(paramLabel = "FILE") Path file) throws Exception {
        JsonNode r = new FarmClient(api, adminToken, trust).post("/api/sweeps", Files.readString(file), file.toString().endsWith(".json") ? "application/json" : "application/yaml");
        System.out.println(r.path("id").asText());
        return 0;
    }

    @Command(name = "status", description = "Show a sweep's progress.")
    int status(@Parameters(paramLabel = "ID") String id) throws Exception {
        JsonNode r = new FarmClient(api, adminToken, trust).get("/api/sweeps/" + id);
        System.out.println(Protocol.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(r));
        return 0;
    }
}
