package org.tunefarm.coordinator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.bridge.RawBridge;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.protocol.Enroll;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Register;

/**
 * Credentials are the farm's, not one coordinator's: enrolled on one, they admit on the other;
 * every coordinator writes them to its own disk; a revoke through one closes the agent's
 * connection on the other at once; and they outlive the leader and a restart of the farm.
 */
class CredentialsClusterTest {
    static final String TOKEN = "cluster-cred-token";
    static final HttpClient http = HttpClient.newHttpClient();
    @TempDir Path data;
    Coordinator a;
    Coordinator b;

    @AfterEach void stop() throws Exception {
        if (a != null) a.close();
        if (b != null) b.close();
    }

    /**
     * Members on ports of their own, each listing both: the built-in config's join tries only
     * 5701-5703, which other test farms on this machine may hold.
     */
    CoordinatorConfig config(String name, String cluster, int port, int peer) throws Exception {
        String yaml;
        try (var in = CredentialsClusterTest.class.getResourceAsStream("/hazelcast-default.yaml")) {
            yaml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        yaml = yaml.replace("auto-increment: true", "auto-increment: false").replace("port: 5701", "port: " + port)
                .replace("          - 127.0.0.1\n", "          - 127.0.0.1:" + port + "\n          - 127.0.0.1:" + peer + "\n");
        Path dir = Files.createDirectories(data.resolve(name));
        Path file = Files.writeString(dir.resolve("hazelcast.yaml"), yaml);
        return CoordinatorConfig.defaults().withDataDir(dir).withPorts(FreePort.pick(), FreePort.pick()).withTokens(TOKEN, "")
                .withClusterName(cluster).withHeartbeatMs(60_000).withHazelcast(file);
    }

    static String enroll(Coordinator c, String id) {
        try (ScriptedAgent s = new ScriptedAgent(c.bridgePort(), TOKEN, id, "Cluster CPU")) {
            return s.ask(Protocol.ENROLL, new Enroll(id)).getString("credential");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Registers with the given token; the answer frame's failure code, or 0 when registered. */
    static int register(ScriptedAgent s) {
        RawBridge.Frame f = assertInstanceOf(RawBridge.Frame.class, s.send(Protocol.REGISTER, new Register(s.id, s.profile, List.of("sleep"))));
        return "message".equals(f.type()) ? 0 : f.frame().getInteger("failureCode");
    }

    static boolean kept(Coordinator c, String id, String state) throws Exception {
        Path f = c.config().dataDir().resolve("credentials.jsonl");
        return Files.exists(f) && Files.readAllLines(f).stream().anyMatch(l -> l.contains("\"agentId\":\"" + id + "\"") && l.contains("\"state\":\"" + state + "\""));
    }

    @Test void credentialsAreTheFarmsOnEveryCoordinatorAndOutliveTheLeaderAndARestart() throws Exception {
        String cluster = "cred-" + UUID.randomUUID();
        int pa = FreePort.pick();
        int pb = FreePort.pick();
        a = new Coordinator(config("a", cluster, pa, pb)).start();
        b = new Coordinator(config("b", cluster, pb, pa)).start();
        await().atMost(Duration.ofSeconds(60)).until(() -> a.leading() && !b.leading());

        String credential = enroll(a, "c-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> kept(b, "c-1", "enrolled"));

        try (ScriptedAgent viaB = new ScriptedAgent(b.bridgePort(), credential, "c-1", "Cluster CPU");
             ScriptedAgent impostorViaA = new ScriptedAgent(a.bridgePort(), TOKEN, "c-1", "Cluster CPU")) {
            assertEquals(0, register(viaB), "the credential enrolled through A registers through B");
            assertEquals(401, register(impostorViaA), "the farm token alone cannot take an enrolled id, on any coordinator");

            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + a.httpPort() + "/api/agents/c-1/revoke"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertInstanceOf(RawBridge.Closed.class, viaB.link.read(), "revoked through A, closed on B at once");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> kept(b, "c-1", "revoked"));
        assertTrue(kept(a, "c-1", "revoked"));

        // The leader goes: B leads, and still knows who is who.
        a.close();
        a = null;
        await().atMost(Duration.ofSeconds(60)).until(() -> b.leading());
        String second = enroll(b, "c-2");
        try (ScriptedAgent old = new ScriptedAgent(b.bridgePort(), credential, "c-1", "Cluster CPU")) {
            assertEquals(403, register(old), "revoked stays revoked after the leader changed");
        }

        // The whole farm restarts from B's folder alone (in a fresh cluster): nothing is forgotten.
        CoordinatorConfig bConfig = b.config();
        b.close();
        b = new Coordinator(bConfig.withClusterName("cred-restart-" + UUID.randomUUID())).start();
        try (ScriptedAgent c1 = new ScriptedAgent(b.bridgePort(), credential, "c-1", "Cluster CPU");
             ScriptedAgent c2 = new ScriptedAgent(b.bridgePort(), second, "c-2", "Cluster CPU");
             ScriptedAgent c2impostor = new ScriptedAgent(b.bridgePort(), TOKEN, "c-2", "Cluster CPU")) {
            assertEquals(403, register(c1));
            assertEquals(401, register(c2impostor));
            assertEquals(0, register(c2));
        }
    }
}
