package org.tunefarm.coordinator.bridge;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.agent.link.BridgeClient;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.ScriptedAgent;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.coordinator.door.RegistrationLimits;
import org.tunefarm.protocol.Enroll;
import org.tunefarm.protocol.Enrolled;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.protocol.Register;

/**
 * The bridge's limits on strangers bite (idle unregistered connections per address and in total,
 * failed registrations per address per minute), and hundreds of honest agents behind one address
 * still all get in with the default limits.
 */
class RegistrationLimitsTest {
    static final String TOKEN = "limits-token";
    @TempDir Path data;
    Coordinator coordinator;

    @AfterEach void stop() throws Exception {
        if (coordinator != null) coordinator.close();
    }

    Coordinator start(RegistrationLimits limits) throws Exception {
        CoordinatorConfig c = TestFarm.config(data).withTokens(TOKEN, "").withHeartbeatMs(60_000);
        coordinator = new Coordinator(c.withDoor(c.door().withRegistrationLimits(limits))).start();
        return coordinator;
    }

    long refused(String kind) {
        return coordinator.refusals().snapshot().getOrDefault("bridge/" + kind, 0L);
    }

    @Test void idleStrangersAreLimitedPerAddressAndTheirFailedRegistrationsPerMinute() throws Exception {
        start(new RegistrationLimits(4, 6, 3, 20_000));
        int port = coordinator.bridgePort();
        List<RawBridge> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) idle.add(new RawBridge(port, 3000));
            await().atMost(Duration.ofSeconds(10)).until(() -> coordinator.bridgeStats().get("unregistered") == 4);
            try (RawBridge fifth = new RawBridge(port, 3000)) {
                assertInstanceOf(RawBridge.Closed.class, fifth.read(), "a fifth idle connection from one address is closed at once");
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> refused("closed/too-many-unregistered-from-address") == 1);
            // One that registers leaves the count, so an honest agent gets in after all.
            idle.remove(0).close();
            await().atMost(Duration.ofSeconds(10)).until(() -> coordinator.bridgeStats().get("unregistered") == 3);
            try (ScriptedAgent honest = new ScriptedAgent(port, TOKEN, "limits-honest", "Limits CPU")) {
                honest.register();
                assertEquals(3, coordinator.bridgeStats().get("unregistered"));
            }
        } finally {
            idle.forEach(RawBridge::close);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> coordinator.bridgeStats().get("unregistered") == 0);

        // Enroll an id, then guess its credential: three failures close the address for the minute.
        String credential;
        try (ScriptedAgent owner = new ScriptedAgent(port, TOKEN, "limits-owner", "Limits CPU")) {
            credential = Protocol.read(owner.ask(Protocol.ENROLL, new Enroll("limits-owner")).encode(), Enrolled.class).credential();
        }
        for (int i = 0; i < 3; i++) {
            try (ScriptedAgent guess = new ScriptedAgent(port, "guess-" + i, "limits-owner", "Limits CPU")) {
                RawBridge.Frame f = assertInstanceOf(RawBridge.Frame.class, guess.send(Protocol.REGISTER, new Register("limits-owner", guess.profile, List.of("sleep"))));
                assertEquals(401, f.frame().getInteger("failureCode"), f.frame().encode());
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> refused("closed/bad-credential") == 3);
        try (ScriptedAgent owner = new ScriptedAgent(port, credential, "limits-owner", "Limits CPU")) {
            assertInstanceOf(RawBridge.Closed.class, owner.link.read(), "past the failed-registration limit, the address is shut out for the minute");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> refused("closed/too-many-failures") == 1);
    }

    @Test void threeHundredHonestAgentsBehindOneAddressAllEnrollAndRegisterAtOnce() throws Exception {
        start(RegistrationLimits.defaults());
        int n = 300;
        Vertx vertx = Vertx.vertx();
        try {
            List<Future<Object>> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String id = "nat-" + i;
                BridgeClient c = new BridgeClient(vertx, TOKEN);
                // What the agent does on its first connection: enroll with the farm token, then register with its credential.
                all.add(c.connect("127.0.0.1", coordinator.bridgePort(), 10_000)
                        .compose(v -> c.request(Protocol.ENROLL, new Enroll(id), 60_000))
                        .compose(e -> {
                            c.useToken(e.getString("credential"));
                            return c.request(Protocol.REGISTER, new Register(id, ScriptedAgent.profile("NAT CPU"), List.of("sleep")), 60_000);
                        }).map(r -> (Object) r));
            }
            Future.all(all).toCompletionStage().toCompletableFuture().get(180, TimeUnit.SECONDS);
            Map<String, Long> stats = coordinator.bridgeStats();
            System.out.println("300 agents behind one address: bridge " + stats + ", refusals " + coordinator.refusals().snapshot());
            assertEquals(n, stats.get("open"), stats.toString());
            assertEquals(n, stats.get("connections"), "nobody needed a second try: " + stats);
            assertEquals(Map.of(), coordinator.refusals().snapshot());
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
