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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.TestCertificate;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.coordinator.door.TlsFiles;
import org.tunefarm.protocol.Protocol;

/**
 * The one-line install, for real: a coordinator serves agent.sh and the agent jar; bash runs the
 * script as a board would (curl piped into bash) into a temporary prefix, in the foreground, and
 * the agent it starts registers with the farm, holding its token in a file and not in its argv.
 */
class ServedInstallerTest {
    static final String TOKEN = "installer-test-token-" + System.nanoTime();
    @TempDir Path tmp;
    Path jar;
    String previousJar;
    Process install;

    @BeforeEach void agentJar() throws Exception {
        jar = ThinAgentJar.write(tmp.resolve("jar/tunefarm-agent.jar"));
        previousJar = System.getProperty(AgentJar.PROPERTY);
        System.setProperty(AgentJar.PROPERTY, jar.toString());
    }

    @AfterEach void stopAgent() throws Exception {
        if (install != null) {
            install.descendants().forEach(ProcessHandle::destroy);
            install.destroy();
            if (!install.waitFor(20, TimeUnit.SECONDS)) {
                install.descendants().forEach(ProcessHandle::destroyForcibly);
                install.destroyForcibly();
            }
        }
        if (previousJar == null) System.clearProperty(AgentJar.PROPERTY);
        else System.setProperty(AgentJar.PROPERTY, previousJar);
    }

    @Test void servedInstallerStartsAnAgentThatRegisters() throws Exception {
        try (Coordinator farm = new Coordinator(TestFarm.config(tmp.resolve("farm")).withTokens(TOKEN, "")).start()) {
            Path prefix = tmp.resolve("prefix");
            installAndAwait(farm, "http", HttpClient.newHttpClient(), "", prefix, "--token-file " + Files.writeString(tmp.resolve("token"), TOKEN + "\n"));

            // What it installed: the served jar, a config naming the bridge, the token only in a private file.
            assertEquals(AgentJar.digest(jar), AgentJar.digest(prefix.resolve("tunefarm-agent.jar")));
            String config = Files.readString(prefix.resolve("agent.yaml"));
            assertTrue(config.contains("- \"127.0.0.1:" + farm.bridgePort() + "\""), config);
            assertFalse(config.contains(TOKEN), "the token is in agent.yaml:\n" + config);
            Path stored = prefix.resolve("state/farm-token");
            assertEquals(TOKEN, Files.readString(stored).strip());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(stored)));
            assertFalse(Files.readString(prefix.resolve("run-agent.sh")).contains(TOKEN));
        }
    }

    @Test void aTlsFarmsInstallerFetchesOverHttpsAndTheAgentDialsTheBridgeWithTls() throws Exception {
        TestCertificate cert = TestCertificate.create(tmp.resolve("tls"));
        CoordinatorConfig c = TestFarm.config(tmp.resolve("farm")).withTokens(TOKEN, "");
        try (Coordinator farm = new Coordinator(c.withDoor(c.door().withTls(new TlsFiles(cert.certFile(), cert.keyFile())))).start()) {
            Path prefix = tmp.resolve("prefix");
            HttpClient https = HttpClient.newBuilder().sslContext(cert.clientContext()).build();
            // The token from the environment this time, and the farm's certificate to trust.
            installAndAwait(farm, "https", https, "--cacert " + cert.certFile(), prefix, "--trust " + cert.certFile());
            String run = Files.readString(prefix.resolve("run-agent.sh"));
            assertTrue(run.contains("--trust " + prefix.resolve("farm-trust.pem")), run);
        }
    }

    /** Pipes the served script into bash as a board would and waits until the agent has registered. */
    private void installAndAwait(Coordinator farm, String scheme, HttpClient client, String curlOptions, Path prefix, String options) throws Exception {
        String url = scheme + "://127.0.0.1:" + farm.httpPort();
        String line = "curl -fsSL " + curlOptions + " " + url + "/install/agent.sh | bash -s -- " + options
                + " --prefix " + prefix + " --foreground --id installed-1 --java " + System.getProperty("java.home");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", line).redirectErrorStream(true).redirectOutput(tmp.resolve("install.log").toFile());
        pb.environment().remove("TUNEFARM_TOKEN");
        if (!options.contains("--token-file")) pb.environment().put("TUNEFARM_TOKEN", TOKEN);
        install = pb.start();
        Process shell = install;
        try {
            await().atMost(3, TimeUnit.MINUTES).pollInterval(Duration.ofSeconds(1))
                    .failFast("the installer exited", () -> !shell.isAlive())
                    .until(() -> registered(client, url, "installed-1"));
        } catch (RuntimeException e) {
            throw new AssertionError(e.getMessage() + "\n--- installer output ---\n" + Files.readString(tmp.resolve("install.log")), e);
        }
        // The running agent: started from the prefix, and no process of it carries the token in argv.
        List<ProcessHandle> tree = install.descendants().toList();
        assertTrue(tree.stream().anyMatch(p -> commandLine(p).contains(prefix.resolve("tunefarm-agent.jar").toString())), "no agent JVM under the installer");
        for (ProcessHandle p : tree) assertFalse(commandLine(p).contains(TOKEN), "argv holds the token: " + commandLine(p));
    }

    private static boolean registered(HttpClient client, String url, String id) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url + "/api/agents")).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        for (JsonNode a : Protocol.JSON.readTree(r.body())) if (a.path("agentId").asText().equals(id)) return true;
        return false;
    }

    private static String commandLine(ProcessHandle p) {
        return p.info().commandLine().orElse("");
    }
}
