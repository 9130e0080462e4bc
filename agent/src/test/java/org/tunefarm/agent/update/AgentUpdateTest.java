package org.tunefarm.agent.update;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.protocol.BuildVersion;

/** Auto-update against a small real HTTP server standing in for the farm's install routes. */
class AgentUpdateTest {
    @TempDir Path dir;
    HttpServer server;
    Vertx vertx;
    /** Requests the server leaves unanswered, the connection open, before it answers again. */
    final AtomicInteger unanswered = new AtomicInteger();
    /** Path → body; a path not here answers 404. */
    final Map<String, byte[]> served = new HashMap<>();
    final AtomicInteger jarFetches = new AtomicInteger();
    Path running;
    byte[] runningBytes;

    /** A jar whose manifest says {@code version}, with one entry so two versions differ in bytes too. */
    static byte[] jar(String version) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (version != null) m.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, version);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JarOutputStream j = new JarOutputStream(out, m)) {
            j.putNextEntry(new JarEntry("build.txt"));
            j.write(("built " + version + " " + System.nanoTime()).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    void serve(byte[] jar, String sha) {
        served.put(AgentUpdate.JAR_PATH, jar);
        served.put(AgentUpdate.JAR_PATH + ".sha256", (sha + "  tunefarm-agent.jar\n").getBytes(StandardCharsets.UTF_8));
    }

    @BeforeEach void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            if (unanswered.getAndUpdate(n -> Math.max(0, n - 1)) > 0) return; // neither answered nor closed
            byte[] body = served.get(ex.getRequestURI().getPath());
            if (ex.getRequestURI().getPath().equals(AgentUpdate.JAR_PATH)) jarFetches.incrementAndGet();
            ex.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            if (body != null) ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        vertx = Vertx.vertx();
        running = dir.resolve("tunefarm-agent.jar");
        runningBytes = jar("1.0.0");
        Files.write(running, runningBytes);
    }

    @AfterEach void stop() {
        server.stop(0);
        vertx.close();
    }

    AgentUpdate update() {
        return new AgentUpdate(vertx, URI.create("http://127.0.0.1:" + server.getAddress().getPort()), null, running, "1.0.0", System::currentTimeMillis);
    }

    @Test void aFarmThatServesNoJarLeavesTheAgentAlone() throws IOException {
        assertEquals(AgentUpdate.Outcome.UNAVAILABLE, update().check());
        assertArrayEquals(runningBytes, Files.readAllBytes(running));
    }

    @Test void theSameJarIsNotFetched() {
        serve(runningBytes, AgentUpdate.sha256(runningBytes));
        assertEquals(AgentUpdate.Outcome.CURRENT, update().check());
        assertEquals(0, jarFetches.get(), "the checksum said it all");
    }

    @Test void anotherVersionReplacesTheJarInPlace() throws IOException {
        byte[] next = jar("1.1.0");
        serve(next, AgentUpdate.sha256(next));
        assertEquals(AgentUpdate.Outcome.REPLACED, update().check());
        assertArrayEquals(next, Files.readAllBytes(running));
        assertEquals("1.1.0", BuildVersion.of(running));
        try (var left = Files.list(dir)) {
            assertEquals(1, left.count(), "no temporary file left beside the jar");
        }
    }

    @Test void aJarThatDoesNotMatchItsChecksumIsRefused() throws IOException {
        byte[] next = jar("1.1.0");
        serve(next, AgentUpdate.sha256(jar("1.1.0")));
        assertEquals(AgentUpdate.Outcome.UNAVAILABLE, update().check());
        assertArrayEquals(runningBytes, Files.readAllBytes(running));
    }

    @Test void anotherJarOfTheSameVersionIsKeptOutAndNotFetchedAgain() throws IOException {
        byte[] rebuilt = jar("1.0.0");
        serve(rebuilt, AgentUpdate.sha256(rebuilt));
        AgentUpdate u = update();
        assertEquals(AgentUpdate.Outcome.KEPT, u.check());
        assertEquals(AgentUpdate.Outcome.KEPT, u.check());
        assertEquals(1, jarFetches.get());
        assertArrayEquals(runningBytes, Files.readAllBytes(running));
    }

    @Test void checksAreSpacedAMinuteApart() throws IOException {
        long[] now = {1_000_000};
        byte[] next = jar("2.0.0");
        AgentUpdate u = new AgentUpdate(vertx, URI.create("http://127.0.0.1:" + server.getAddress().getPort()), null, running, "1.0.0", () -> now[0]);
        assertFalse(u.replacedIfDue(), "404: nothing to do");
        serve(next, AgentUpdate.sha256(next));
        now[0] += 1_000;
        assertFalse(u.replacedIfDue(), "too soon to ask again");
        now[0] += AgentUpdate.MIN_INTERVAL_MS;
        assertTrue(u.replacedIfDue());
    }

    @Test void aRequestThatHangsIsAskedAgainOnANewConnection() throws IOException {
        byte[] next = jar("1.2.0");
        serve(next, AgentUpdate.sha256(next));
        unanswered.set(1);
        AgentUpdate u = new AgentUpdate(vertx, URI.create("http://127.0.0.1:" + server.getAddress().getPort()), null, running, "1.0.0",
                System::currentTimeMillis, 1_000);
        assertEquals(AgentUpdate.Outcome.REPLACED, u.check(), "the second asking is answered");
        assertArrayEquals(next, Files.readAllBytes(running));

        unanswered.set(2);
        byte[] later = jar("1.3.0");
        serve(later, AgentUpdate.sha256(later));
        assertEquals(AgentUpdate.Outcome.UNAVAILABLE, u.check(), "asked twice, then the check gives up until the next");
        assertArrayEquals(next, Files.readAllBytes(running), "and leaves the jar alone");
    }
}
