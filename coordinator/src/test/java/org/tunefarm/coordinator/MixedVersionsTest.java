package org.tunefarm.coordinator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.bridge.RawBridge;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Register;

/**
 * A fleet of mixed versions: the farm says which protocol versions it accepts, refuses another one
 * in words an operator can act on, shows each agent's version, and a real agent started with
 * {@code --auto-update} replaces its jar by the one the farm serves and comes back on it.
 */
class MixedVersionsTest {
    static final String TOKEN = "versions-token";
    @TempDir static Path data;
    static Coordinator coordinator;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll static void start() throws Exception {
        coordinator = new Coordinator(TestFarm.config(data).withTokens(TOKEN, "")).start();
    }

    @AfterAll static void stop() throws Exception {
        if (coordinator != null) coordinator.close();
    }

    static JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    @Test void healthNamesTheAcceptedProtocolsAndAnotherVersionIsRefusedInWords() throws Exception {
        JsonNode health = get("/api/health");
        assertEquals(List.of(Protocol.VERSION), Protocol.JSON.convertValue(health.path("protocols"), List.class));
        assertTrue(health.path("version").isTextual(), health.toString());

        DeviceProfile p = new DeviceProfile("Test CPU", "testarch", 2, 2, 32, 512, 32768, 16, "Linux", "amd64", "Test", 25, 256, List.of(), Map.of());
        JsonObject body = new JsonObject(Protocol.write(new Register("future-1", p, List.of("sleep")))).put("v", 99);
        try (RawBridge b = new RawBridge(coordinator.bridgePort(), 10_000)) {
            RawBridge.Frame f = (RawBridge.Frame) b.request(RawBridge.send(Protocol.REGISTER, TOKEN, body));
            assertEquals("err", f.type(), f.frame().encode());
            String message = f.frame().getString("message");
            assertTrue(message.contains("protocol version 99 is not supported") && message.contains("accepts [" + Protocol.VERSION + "]"), message);
        }
    }

    /** A jar holding only a manifest: runs the agent from the test class path, and says {@code version}. */
    static byte[] agentJar(String version) throws Exception {
        List<String> urls = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) urls.add(Path.of(e).toUri().toString());
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, AgentProcess.MAIN);
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", urls));
        m.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, version);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new JarOutputStream(out, m).close();
        return out.toByteArray();
    }

    @Test void anAgentWithAutoUpdateTakesTheServedVersionAndRegistersWithIt() throws Exception {
        Path jar = data.resolve("board").resolve("tunefarm-agent.jar");
        Files.createDirectories(jar.getParent());
        Files.write(jar, agentJar("9.0.0-old"));
        byte[] served = agentJar("9.0.1-new");
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(served));
        HttpServer farmInstall = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        farmInstall.createContext("/install/tunefarm-agent.jar", ex -> {
            byte[] b = ex.getRequestURI().getPath().endsWith(".sha256") ? (sha + "  tunefarm-agent.jar\n").getBytes(StandardCharsets.UTF_8) : served;
            ex.sendResponseHeaders(200, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        farmInstall.start();
        Path log = data.resolve("updating-agent.log");
        ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-Xmx256m", "-jar", jar.toString(),
                "--coordinator", "127.0.0.1:" + coordinator.bridgePort(), "--id", "updating-1",
                "--auto-update", "http://127.0.0.1:" + farmInstall.getAddress().getPort())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("TUNEFARM_TOKEN", TOKEN);
        Process agent = pb.start();
        try {
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
                if (!agent.isAlive()) throw new AssertionError("the agent exited; its log: " + Files.readString(log));
                for (JsonNode a : get("/api/agents")) if (a.path("agentId").asText().equals("updating-1")) return a.path("version").asText().equals("9.0.1-new");
                return false;
            });
            assertArrayEquals(served, Files.readAllBytes(jar), "the jar was replaced in place by the served one");
            String out = Files.readString(log);
            assertTrue(out.contains("replaced version 9.0.0-old by 9.0.1-new"), out);
            assertEquals(1, agent.descendants().filter(h -> h.info().commandLine().orElse("").contains("updating-1")).count(),
                    "the restarted agent runs as this process's child");
            assertTrue(out.lines().noneMatch(l -> l.contains("WARNING") && l.contains("auto-update")), out);
        } finally {
            agent.descendants().forEach(ProcessHandle::destroy);
            agent.destroy();
            agent.waitFor();
            farmInstall.stop(0);
        }
    }
}
