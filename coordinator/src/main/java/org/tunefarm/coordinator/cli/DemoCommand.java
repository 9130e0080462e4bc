package org.tunefarm.coordinator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.protocol.Protocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tunefarm demo}: an embedded farm (a coordinator and one local agent process) tunes GEMM
 * for three shapes on this machine, prints the best-kernel table and writes it next to the records.
 */
@Command(name = "demo", description = "Tune GEMM on this machine with an embedded farm and print the table.", mixinStandardHelpOptions = true)
final class DemoCommand implements Callable<Integer> {

    @Option(names = "--data", description = "Data folder (default: ${DEFAULT-VALUE}).", defaultValue = "tunefarm-data")
    Path data;

    @Option(names = "--sweep", description = "Sweep spec to run instead of the built-in GEMM demo.")
    Path sweep;

    @Override public Integer call() throws Exception {
        String spec = sweep != null ? Files.readString(sweep) : builtIn();
        String token = "demo-" + java.util.UUID.randomUUID(); // the embedded farm admits only its own agent
        CoordinatorConfig config = CoordinatorConfig.defaults().withDataDir(data).withPorts(FreePort.pick(), FreePort.pick()).withTokens(token, "")
                .withClusterName("demo-" + ProcessHandle.current().pid());
        Path alone = aloneHazelcast(data);
        if (alone != null) config = config.withHazelcast(alone);
        System.out.println("starting an embedded farm: coordinator + 1 agent process (data in " + data.toAbsolutePath() + ")");
        try (Coordinator coordinator = new Coordinator(config).start();
             AgentProcess agent = AgentProcess.start("local-agent", List.of("127.0.0.1:" + config.bridgePort()), token, data.resolve("agent.log"), List.of())) {
            FarmClient client = new FarmClient("http://127.0.0.1:" + coordinator.httpPort(), "");
            String id = client.post("/api/sweeps", spec, "application/yaml").path("id").asText();
            System.out.println("sweep " + id + " started");
            long started = System.currentTimeMillis();
            String last = "";
            while (true) {
                if (!agent.alive()) throw new IllegalStateException("the agent process exited; see " + agent.log());
                JsonNode s = client.get("/api/sweeps/" + id);
                String line = progress(s);
                if (!line.equals(last)) {
                    System.out.printf("[%3ds] %s%n", (System.currentTimeMillis() - started) / 1000, line);
                    last = line;
                }
                if ("done".equals(s.path("state").asText())) break;
                if ("cancelled".equals(s.path("state").asText())) {
                    System.out.println("sweep " + id + " was cancelled; records so far are in " + data.resolve("records.jsonl"));
                    return SweepWatch.CANCELLED;
                }
                Thread.sleep(1000);
            }
            JsonNode table = client.get("/api/table");
            System.out.println();
            TablePrinter.print(table, System.out);
            Files.writeString(data.resolve("table.json"), Protocol.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(table) + "\n");
            System.out.println();
            System.out.println("records: " + data.resolve("records.jsonl") + "   table: " + data.resolve("table.json"));
        }
        return 0;
    }

    private static String progress(JsonNode s) {
        StringBuilder b = new StringBuilder(s.path("state").asText());
        for (JsonNode p : s.path("searches")) {
            b.append("  ").append(p.path("kernel").asText().replaceAll(":fp32", "")).append(' ')
                    .append(p.path("measured").asInt()).append('/').append(p.path("budget").asInt());
        }
        return b.toString();
    }

    /**
     * The built-in member config, on one free port and joining only itself: the embedded farm has
     * no one to meet, and knocking on 5701.. of a machine where other farms run only earns warnings.
     * Null (the default config) if the built-in file no longer reads as expected.
     */
    private static Path aloneHazelcast(Path data) throws java.io.IOException {
        String yaml;
        try (InputStream in = DemoCommand.class.getResourceAsStream("/hazelcast-default.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        int port = FreePort.pick();
        String alone = yaml.replace("      auto-increment: true", "      auto-increment: false").replace("      port: 5701", "      port: " + port)
                .replace("          - 127.0.0.1\n", "          - 127.0.0.1:" + port + "\n");
        if (!alone.contains("port: " + port) || !alone.contains("127.0.0.1:" + port) || !alone.contains("auto-increment: false")) return null;
        Files.createDirectories(data);
        Path file = data.resolve("hazelcast-demo.yaml");
        Files.writeString(file, alone);
        return file;
    }

    private static String builtIn() throws java.io.IOException {
        try (InputStream in = DemoCommand.class.getResourceAsStream("/demo-gemm.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
