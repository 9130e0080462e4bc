package org.tunefarm.coordinator;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.bridge.RawBridge;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.coordinator.local.CoordinatorProcess;
import org.tunefarm.coordinator.local.FreePort;
import org.tunefarm.protocol.Protocol;

/**
 * Who may speak for an agent, with real processes: the farm token alone cannot displace an
 * enrolled agent; a revoke closes its connection at once and holds across a kill -9 of the
 * coordinator; an admin's new credential, put in the agent's file, lets it back in. Neither
 * process carries the farm token in its argv.
 */
class RevokeTest {
    static final HttpClient http = HttpClient.newHttpClient();
    @TempDir Path data;
    final String token = "revoke-" + UUID.randomUUID();
    CoordinatorProcess coordinator;
    AgentProcess agent;

    @AfterEach void stop() {
        if (agent != null) agent.close();
        if (coordinator != null) coordinator.close();
    }

    HttpResponse<String> call(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    JsonNode bridge() throws Exception {
        return Protocol.JSON.readTree(call("GET", "/api/health").body()).path("bridge");
    }

    boolean up() {
        try {
            return call("GET", "/api/health").statusCode() == 200;
        } catch (Exception e) {
            return false;
        }
    }

    static String argv(long pid) throws Exception {
        return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
    }

    long agentLines(String text) throws Exception {
        return Files.readAllLines(agent.log()).stream().filter(l -> l.contains(text)).count();
    }

    @Test void aRevokedAgentIsLockedOutAtOnceAndStaysOutAcrossARestartUntilEnrolledAgain() throws Exception {
        int httpPort = FreePort.pick();
        int bridgePort = FreePort.pick();
        String cluster = "revoke-" + UUID.randomUUID();
        coordinator = CoordinatorProcess.start(data.resolve("coordinator"), httpPort, bridgePort, token, cluster, data.resolve("coordinator.log"));
        await().atMost(Duration.ofSeconds(90)).until(this::up);
        agent = AgentProcess.start("board-7", List.of("127.0.0.1:" + bridgePort), token, data.resolve("board-7.log"), List.of());
        await().atMost(Duration.ofSeconds(60)).until(() -> bridge().path("open").asLong() == 1);
        assertEquals(1, bridge().path("registrations").asLong());
        for (long pid : List.of(coordinator.pid(), agent.pid())) assertFalse(argv(pid).contains(token), "the farm token is not in argv: " + argv(pid));

        // The farm token alone no longer registers an enrolled id, and the agent keeps its connection.
        try (ScriptedAgent impostor = new ScriptedAgent(bridgePort, token, "board-7", "Impostor CPU")) {
            RawBridge.Frame refused = assertInstanceOf(RawBridge.Frame.class, impostor.send(Protocol.REGISTER,
                    new org.tunefarm.protocol.Register("board-7", impostor.profile, List.of("sleep"))));
            assertEquals(401, refused.frame().getInteger("failureCode"), refused.frame().encode());
            assertInstanceOf(RawBridge.Closed.class, impostor.link.read());
        }
        assertEquals(1, bridge().path("open").asLong(), "the real agent was not displaced");
        assertEquals(1, bridge().path("registrations").asLong());

        assertEquals(200, call("POST", "/api/agents/board-7/revoke").statusCode());
        await().atMost(Duration.ofSeconds(10)).until(() -> bridge().path("open").asLong() == 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> agentLines("was revoked") >= 1);
        JsonNode creds = Protocol.JSON.readTree(call("GET", "/api/credentials").body());
        assertEquals("revoked", creds.get(0).path("state").asText(), creds.toString());

        // kill -9 and start again on the same folder: the revoke holds.
        coordinator.kill();
        long refusedBefore = agentLines("was revoked");
        coordinator = CoordinatorProcess.start(data.resolve("coordinator"), httpPort, bridgePort, token, cluster, data.resolve("coordinator.log"));
        await().atMost(Duration.ofSeconds(90)).until(this::up);
        await().atMost(Duration.ofSeconds(60)).until(() -> agentLines("was revoked") > refusedBefore);
        assertEquals(0, bridge().path("registrations").asLong(), "still locked out after the restart");

        // An admin enrolls it again; the operator puts the new credential where the agent reads it.
        HttpResponse<String> enrolled = call("POST", "/api/agents/board-7/enroll");
        assertEquals(201, enrolled.statusCode(), enrolled.body());
        String credential = Protocol.JSON.readTree(enrolled.body()).path("credential").asText();
        Files.writeString(agent.credentialFile(), credential + "\n");
        await().atMost(Duration.ofSeconds(60)).until(() -> bridge().path("open").asLong() == 1);

        List<String> audit = Files.readAllLines(data.resolve("coordinator").resolve("audit.jsonl"));
        List<String> actions = new ArrayList<>();
        for (String l : audit) actions.add(Protocol.JSON.readTree(l).path("action").asText());
        assertEquals(List.of("agent.enroll", "agent.revoke", "agent.enroll"), actions, audit.toString());
        assertTrue(audit.get(1).contains("\"credential\":\"open-loopback\"") && audit.get(1).contains("127.0.0.1"), audit.get(1));
        assertFalse(Files.readString(data.resolve("coordinator").resolve("credentials.jsonl")).contains(credential));
    }
}
