package org.tunefarm.coordinator.install;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.protocol.Protocol;

/** What /install/* serves: the jar with a checksum that matches it, a script for this farm, and clear errors. */
class AgentInstallTest {
    @TempDir Path tmp;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test void servedJarMatchesTheFileAndItsServedSha256EvenBehindAReadToken() throws Exception {
        // Some bytes that are not a trivial file, so a wrong or cached digest shows.
        byte[] content = new byte[3 * 1024 * 1024 + 17];
        new java.util.Random(42).nextBytes(content);
        Path jar = Files.write(tmp.resolve("tunefarm-agent.jar"), content);
        String previous = System.getProperty(AgentJar.PROPERTY);
        System.setProperty(AgentJar.PROPERTY, jar.toString());
        CoordinatorConfig c = TestFarm.config(tmp.resolve("farm")).withTokens("farm", "admin");
        try (Coordinator farm = new Coordinator(c.withDoor(c.door().withReadToken("reader"))).start()) {
            String base = "http://127.0.0.1:" + farm.httpPort();
            HttpResponse<byte[]> served = http.send(get(base + AgentInstall.JAR), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, served.statusCode());
            assertArrayEquals(content, served.body());
            String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
            HttpResponse<String> sum = http.send(get(base + AgentInstall.SHA256), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, sum.statusCode());
            assertEquals(expected + "  tunefarm-agent.jar\n", sum.body());

            // A rebuilt jar is hashed again: the checksum describes the bytes served now.
            content[0] ^= 1;
            Files.write(jar, content);
            Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5000));
            String changed = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
            assertEquals(changed + "  tunefarm-agent.jar\n", http.send(get(base + AgentInstall.SHA256), HttpResponse.BodyHandlers.ofString()).body());

            // The script names this farm and its bridge, needs no token, and is valid bash.
            HttpResponse<String> script = http.send(get(base + AgentInstall.SCRIPT), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, script.statusCode());
            assertTrue(script.body().contains("\nSERVED_FARM=\"" + base + "\"\n"), "farm URL not filled in");
            assertTrue(script.body().contains("\nSERVED_BRIDGE_PORT=\"" + farm.bridgePort() + "\"\n"), "bridge port not filled in");
            assertTrue(script.body().contains("\nSERVED_BRIDGE_TLS=\"\"\n"), "a plain farm's bridge is plain");
            assertSyntax(script.body());
            // Reads elsewhere still need the read token.
            assertEquals(401, http.send(get(base + "/api/agents"), HttpResponse.BodyHandlers.ofString()).statusCode());
        } finally {
            if (previous == null) System.clearProperty(AgentJar.PROPERTY);
            else System.setProperty(AgentJar.PROPERTY, previous);
        }
    }

    @Test void noJarIsA404NamingWhereItLookedAndTheScriptIsSelfContained() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            Router router = Router.router(vertx);
            Path missing = tmp.resolve("nowhere/tunefarm-agent.jar");
            new AgentInstall(vertx, () -> 7443, true, missing).routes(router);
            HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            String base = "http://127.0.0.1:" + server.actualPort();
            for (String path : new String[] {AgentInstall.JAR, AgentInstall.SHA256}) {
                HttpResponse<String> r = http.send(get(base + path), HttpResponse.BodyHandlers.ofString());
                assertEquals(404, r.statusCode(), path);
                JsonNode n = Protocol.JSON.readTree(r.body());
                assertEquals("agentJar", n.path("field").asText());
                assertTrue(n.path("error").asText().contains(missing.toString()), r.body());
            }
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(base + AgentInstall.JAR))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode());
            assertEquals("GET", post.headers().firstValue("Allow").orElse(""));

            String script = http.send(get(base + AgentInstall.SCRIPT), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(script.contains("\nSERVED_BRIDGE_PORT=\"7443\"\n"));
            assertTrue(script.contains("\nSERVED_BRIDGE_TLS=\"1\"\n"), "a TLS farm's agents must dial the bridge with TLS");
            // Piped into bash on a board there is nothing beside the script to read.
            assertFalse(script.contains("$HERE/find-jdk.sh"), "the Java finder is not inlined");
            assertFalse(script.contains("$HERE/tunefarm-agent.service"), "the unit is not inlined");
            assertTrue(script.contains("\ntunefarm_find_java() {"));
            assertTrue(script.contains("ExecStart=@PREFIX@/run-agent.sh"));
            assertSyntax(script);

            // A Host that is not a plain name would be written into a shell script: refused.
            String answer = raw(server.actualPort(), "GET " + AgentInstall.SCRIPT + " HTTP/1.1\r\nHost: x$(id)y\r\nConnection: close\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
            assertFalse(answer.contains("SERVED_FARM"), answer);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();
    }

    private static String raw(int port, String request) throws Exception {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    /** bash -n: the served script parses. */
    private void assertSyntax(String script) throws Exception {
        Path file = Files.writeString(tmp.resolve("agent-" + System.nanoTime() + ".sh"), script, StandardCharsets.UTF_8);
        Process p = new ProcessBuilder("bash", "-n", file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
    }
}
