package org.tunefarm.coordinator.install;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.protocol.Protocol;

/**
 * The one-line install, for real: a coordinator serves agent.sh and the agent jar; bash runs the
 * script as a board would (curl piped into bash) into a temporary prefix, in the foreground, and
 * the agent it starts registers with the farm, holding its token in a file and not in its argv.
 */
class ServedInstallerTest {
    static final String TOKEN = "installer-test-token-" + System.nanoTime();
    @TempDir Path tmp;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test void servedInstallerStartsAnAgentThatRegisters() throws Exception {
        Path jar = ThinAgentJar.write(tmp.resolve("jar/tunefarm-agent.jar"));
        String previous = System.getProperty(AgentJar.PROPERTY);
        System.setProperty(AgentJar.PROPERTY, jar.toString());
        Process install = null;
        try (Coordinator farm = new Coordinator(TestFarm.config(tmp.resolve("farm")).withTokens(TOKEN, "")).start()) {
            Path tokenFile = Files.writeString(tmp.resolve("token"), TOKEN + "\n");
            Path prefix = tmp.resolve("prefix");
            String line = "curl -fsSL http://127.0.0.1:" + farm.httpPort() + "/install/agent.sh | bash -s -- --token-file " + tokenFile
                    + " --prefix " + prefix + " --foreground --id installed-1 --java " + System.getProperty("java.home");
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", line).redirectErrorStream(true)
                    .redirectOutput(tmp.resolve("install.log").toFile());
            pb.environment().remove("TUNEFARM_TOKEN");
            install = pb.start();
            Process shell = install;
            try {
                await().atMost(3, TimeUnit.MINUTES).pollInterval(Duration.ofSeconds(1))
                        .failFast("the installer exited", () -> !shell.isAlive())
                        .until(() -> registered(farm, "installed-1"));
            } catch (RuntimeException e) {
                throw new AssertionError(e.getMessage() + "\n--- installer output ---\n" + log(), e);
            }

            // What it installed: the served jar, a config naming the bridge, the token only in a private file.
            assertEquals(AgentJar.digest(jar), AgentJar.digest(prefix.resolve("tunefarm-agent.jar")));
            String config = Files.readString(prefix.resolve("agent.yaml"));
            assertTrue(config.contains("- \"127.0.0.1:" + farm.bridgePort() + "\""), config);
            assertFalse(config.contains(TOKEN), "the token is in agent.yaml:\n" + config);
            Path stored = prefix.resolve("state/farm-token");
            assertEquals(TOKEN, Files.readString(stored).strip());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(stored)));
            // The running agent: started from the prefix, and no process of it carries the token in argv.
            List<ProcessHandle> tree = install.descendants().toList();
            assertTrue(tree.stream().anyMatch(p -> args(p).contains(prefix.resolve("tunefarm-agent.jar").toString())), "no agent JVM under the installer");
            for (ProcessHandle p : tree) assertFalse(args(p).contains(TOKEN), "argv holds the token: " + args(p));
        } finally {
            if (install != null) {
                install.descendants().forEach(ProcessHandle::destroy);
                install.destroy();
                if (!install.waitFor(20, TimeUnit.SECONDS)) {
                    install.descendants().forEach(ProcessHandle::destroyForcibly);
                    install.destroyForcibly();
                }
            }
            if (previous == null) System.clearProperty(AgentJar.PROPERTY);
            else System.setProperty(AgentJar.PROPERTY, previous);
        }
    }

    private boolean registered(Coordinator farm, String id) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + farm.httpPort() + "/api/agents")).build(),
                HttpResponse.BodyHandlers.ofString());
        for (JsonNode a : Protocol.JSON.readTree(r.body())) if (a.path("agentId").asText().equals(id)) return true;
        return false;
    }

    private static String args(ProcessHandle p) {
        return p.info().commandLine().orElse("");
    }

    private String log() {
        try {
            return Files.readString(tmp.resolve("install.log"));
        } catch (java.io.IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
