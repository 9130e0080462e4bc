package org.tunefarm.coordinator.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.ScriptedAgent;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.coordinator.door.RegistrationLimits;
import org.tunefarm.coordinator.bridge.RawBridge;
import org.tunefarm.measure.Measurement;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;

/**
 * Over 10,000 seeded bad inputs, bridge frames and REST requests, against one real coordinator;
 * then the farm must still answer, the record log must hold nothing from them, and an honest
 * sleep sweep must still run to the end. The answers are counted by class and printed.
 */
class FuzzTest {
    static final String TOKEN = "fuzz-token";
    static final String ADMIN = "fuzz-admin";
    static final String READ = "fuzz-read";
    static final long SEED = 20_260_512;
    static final int MAX_FRAME = 64 * 1024;
    @TempDir static Path data;
    static Coordinator coordinator;
    static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    /** Refusals are logged per frame by the farm verticle; ten thousand lines would only slow the test. */
    static final Logger QUIET = Logger.getLogger("org.tunefarm.coordinator");

    @BeforeAll static void start() throws Exception {
        CoordinatorConfig c = TestFarm.config(data).withTokens(TOKEN, ADMIN).withHeartbeatMs(60_000);
        // Thousands of refused registrations from one address is what the failed-registration limit
        // stops; lifted here, so the fuzz reaches the parser and the dispatcher rather than the limit.
        coordinator = new Coordinator(c.withDoor(c.door().withReadToken(READ).withFrameLimits(MAX_FRAME, 300)
                .withRegistrationLimits(new RegistrationLimits(4096, 8192, 1_000_000, 20_000)))).start();
        QUIET.setLevel(Level.SEVERE);
    }

    @AfterAll static void stop() throws Exception {
        QUIET.setLevel(null);
        if (coordinator != null) coordinator.close();
    }

    /** Answer counts by input kind and answer class. */
    static final class Tally {
        final Map<String, LongAdder> byAnswer = new ConcurrentHashMap<>();
        final Map<String, LongAdder> byKindAnswer = new ConcurrentHashMap<>();

        void count(String kind, String answer) {
            byAnswer.computeIfAbsent(answer, k -> new LongAdder()).increment();
            byKindAnswer.computeIfAbsent(kind + " -> " + answer, k -> new LongAdder()).increment();
        }

        long get(String answer) {
            LongAdder a = byAnswer.get(answer);
            return a == null ? 0 : a.sum();
        }

        long total() {
            return byAnswer.values().stream().mapToLong(LongAdder::sum).sum();
        }

        String print(String title) {
            StringBuilder b = new StringBuilder(title).append(": ").append(total()).append(" inputs\n");
            new TreeMap<>(byAnswer).forEach((k, v) -> b.append("  ").append(String.format("%-22s %6d%n", k, v.sum())));
            b.append("  by kind:\n");
            new TreeMap<>(byKindAnswer).forEach((k, v) -> b.append("    ").append(String.format("%-44s %6d%n", k, v.sum())));
            return b.toString();
        }
    }

    static long recordLines() throws Exception {
        Path p = data.resolve("records.jsonl");
        return Files.exists(p) ? Files.readAllLines(p).size() : 0;
    }

    static HttpResponse<String> rest(String method, String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) b.header("Authorization", "Bearer " + token);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String submit(String yaml) throws Exception {
        HttpResponse<String> r = rest("POST", "/api/sweeps", yaml, ADMIN);
        assertEquals(201, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }

    static String classify(RawBridge.Answer a) {
        return switch (a) {
            case RawBridge.Frame f when "err".equals(f.type()) -> "err-frame " + f.frame().getInteger("failureCode", -1);
            case RawBridge.Frame f -> "accepted (" + f.type() + ")";
            case RawBridge.Closed c -> "closed";
            case RawBridge.Silence s -> "silence";
        };
    }

    @Test void tenThousandBadInputsLeaveTheFarmServingAndTheRecordsClean() throws Exception {
        long t0 = System.nanoTime();
        int port = coordinator.bridgePort();
        try (ScriptedAgent holder = new ScriptedAgent(port, TOKEN, "fuzz-holder", "Fuzz Holder CPU");
             ScriptedAgent other = new ScriptedAgent(port, TOKEN, "fuzz-other", "Fuzz Holder CPU")) {
            holder.register();
            other.register();
            submit("name: fuzz-leases\nkernel: sleep\nshapes: [{unitUs: 10}]\nspace: {a: [3, 4, 5, 6], b: [11], mode: [fast]}\n"
                    + "strategy: {name: exhaustive, budget: 0}\nbatchSize: 5\ndeviceClasses: [" + holder.deviceClass() + "]\n");
            Lease lease = holder.pull();
            assertNotNull(lease);
            long before = recordLines();

            List<BridgeInputs.Input> frames = new BridgeInputs(SEED, TOKEN, holder, lease, MAX_FRAME).generate();
            List<RestInputs.Input> requests = new RestInputs(SEED + 1, ADMIN, READ).generate();
            Tally bridge = new Tally();
            Tally restTally = new Tally();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<?>> work = new ArrayList<>();
            for (BridgeInputs.Input in : frames) {
                switch (in.who()) {
                    case FRESH -> work.add(pool.submit(() -> {
                        try (RawBridge b = new RawBridge(port, 3000)) {
                            bridge.count(in.kind(), classify(b.write(in.bytes()) ? b.read() : new RawBridge.Closed()));
                        }
                        return null;
                    }));
                    case HOLDER -> bridge.count(in.kind(), classify(holder.link.write(in.bytes()) ? holder.link.read() : new RawBridge.Closed()));
                    case OTHER -> bridge.count(in.kind(), classify(other.link.write(in.bytes()) ? other.link.read() : new RawBridge.Closed()));
                }
            }
            for (RestInputs.Input in : requests) {
                work.add(pool.submit(() -> {
                    String answer;
                    try {
                        HttpResponse<String> r = rest(in.method(), in.path(), in.body(), in.token());
                        JsonNode n = r.body().isEmpty() ? null : Protocol.JSON.readTree(r.body());
                        boolean json = n != null && n.has("error") && n.has("field") && n.path("status").asInt() == r.statusCode();
                        answer = r.statusCode() == 201 ? "accepted (201)" : r.statusCode() + (json || r.statusCode() < 400 ? "" : " (not JSON)");
                    } catch (java.io.IOException e) {
                        // Named, so that a failure says which: a timeout, a reset, a connection the server closed.
                        answer = "io-error " + e.getClass().getSimpleName() + ": " + e.getMessage();
                    }
                    restTally.count(in.kind(), answer);
                    return null;
                }));
            }
            for (Future<?> f : work) f.get();
            pool.shutdown();
            double seconds = (System.nanoTime() - t0) / 1e9;

            System.out.println(bridge.print("bridge fuzz"));
            System.out.println(restTally.print("REST fuzz"));
            System.out.println("refusals counted by the coordinator: " + coordinator.refusals().snapshot());
            System.out.printf("fuzz took %.1f s%n", seconds);

            // Every bad input was refused; a mutation that happened to stay valid was accepted and is counted apart.
            long refusedBridge = bridge.total() - bridge.byAnswer.keySet().stream().filter(k -> k.startsWith("accepted")).mapToLong(bridge::get).sum();
            long refusedRest = restTally.total() - restTally.get("accepted (201)");
            assertTrue(refusedBridge + refusedRest >= 10_000, "at least 10,000 refused inputs: " + (refusedBridge + refusedRest));
            assertEquals(0, bridge.get("silence"), "every bridge input was answered");
            assertEquals(0, bridge.get("err-frame 500"), "no bridge input hit a bug");
            assertTrue(restTally.byAnswer.keySet().stream().allMatch(k -> k.equals("accepted (201)") || k.matches("4\\d\\d")),
                    "REST answered only JSON 4xx (or 201 for a still-valid mutation): " + restTally.byAnswer.keySet());
            for (String kind : List.of("dishonest-report", "foreign-lease", "impersonation", "unregistered", "bad-token", "bad-address", "bad-type", "lying-length")) {
                assertTrue(bridge.byKindAnswer.keySet().stream().filter(k -> k.startsWith(kind + " ")).noneMatch(k -> k.contains("accepted")), kind + " must never be accepted");
            }
            for (String kind : List.of("wrong-field", "code-in-constraint", "deep-nesting", "yaml-bomb", "oversized", "random-body", "unknown-route", "wrong-method",
                    "no-admin-token", "no-read-token")) {
                assertTrue(restTally.byKindAnswer.keySet().stream().filter(k -> k.startsWith(kind + " ")).noneMatch(k -> k.contains("accepted")), kind + " must never be accepted");
            }
            Map<String, Long> counted = coordinator.refusals().snapshot();
            assertTrue(counted.keySet().stream().noneMatch(k -> k.startsWith("rest/5") || k.equals("rest/unexpected")), counted.toString());
            assertEquals(before, recordLines(), "the record log holds nothing from the fuzz");

            // The farm still serves: health, the holder's lease, and a whole honest sweep.
            assertEquals(200, rest("GET", "/api/health", null, null).statusCode());
            assertEquals(lease.candidates().size(), holder.measure(lease), "the lease the fuzz attacked is still the holder's");
            try (ScriptedAgent verifier = new ScriptedAgent(port, TOKEN, "fuzz-verifier", "Fuzz Verifier CPU")) {
                verifier.register();
                String id = submit("name: after-fuzz\nkernel: sleep\nshapes: [{unitUs: 10}]\nspace: {a: [4, 5, 6], b: [10, 11], mode: [fast]}\n"
                        + "strategy: {name: exhaustive, budget: 0}\nmeasure: {finalists: 0}\nbatchSize: 4\ndeviceClasses: [" + verifier.deviceClass() + "]\n");
                int measured = 0;
                for (Lease l = verifier.pull(); l != null; l = verifier.pull()) measured += verifier.measure(l);
                assertEquals(3 * 2 + 1, measured, "every point and the baseline");
                JsonNode status = Protocol.JSON.readTree(rest("GET", "/api/sweeps/" + id, null, READ).body());
                assertEquals("done", status.path("state").asText(), status.toString());
            }
            List<String> lines = Files.readAllLines(data.resolve("records.jsonl"));
            assertEquals(before + lease.candidates().size() + 7, lines.size());
            for (String line : lines) {
                Measurement m = Protocol.JSON.readValue(line, Measurement.class);
                assertTrue(m.agentId().equals("fuzz-holder") || m.agentId().equals("fuzz-verifier"), line);
            }
        }
    }
}
