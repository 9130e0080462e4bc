package org.tunefarm.coordinator.boards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;

/**
 * The agent on the Java 17 that Debian 12 ships, against a coordinator on this JDK: with the
 * Vector API, forced to 128-bit vectors, and without the module (a JRE that lacks it). Each
 * registers a device class of its own, and a small GEMM sweep verifies every candidate on each;
 * the one without vectors is lent only scalar variants.
 */
class Java17AgentTest {
    static final String VECTOR = "--add-modules=jdk.incubator.vector";

    @TempDir static Path data;
    static BoardFarm farm;
    /** Agent id → its process; insertion order is the order below. */
    static final Map<String, BoardAgent> agents = new LinkedHashMap<>();
    static final Map<String, JsonNode> registered = new HashMap<>();

    @BeforeAll static void start() throws Exception {
        String java = BoardJre.require("tunefarm.java17", "/usr/lib/jvm/java-17-openjdk-amd64/bin/java", Map.of(),
                "install Debian's openjdk-17-jre-headless");
        farm = new BoardFarm(data, 1_000);
        Map<String, List<String>> options = new LinkedHashMap<>();
        options.put("java17", List.of(VECTOR));
        options.put("java17-128", List.of(VECTOR, "-Dtunefarm.vectorBits=128"));
        options.put("java17-scalar", List.of());
        for (var e : options.entrySet()) {
            agents.put(e.getKey(), BoardAgent.start(java, e.getValue(), Map.of(), e.getKey(), farm.bridge(), data.resolve(e.getKey() + ".log")));
        }
        for (var e : agents.entrySet()) {
            BoardAgent a = e.getValue();
            registered.put(e.getKey(), farm.awaitAgent(e.getKey(), Duration.ofSeconds(90), a::alive, "agent " + e.getKey() + " exited:\n" + a.logText()));
            System.out.println(e.getKey() + " registered in device class " + registered.get(e.getKey()).path("deviceClass").asText());
        }
    }

    @AfterAll static void stop() throws Exception {
        for (BoardAgent a : agents.values()) a.close();
        if (farm != null) farm.close();
    }

    @Test void eachJvmRegistersItsOwnDeviceClass() {
        for (var e : registered.entrySet()) {
            JsonNode profile = e.getValue().path("profile");
            assertEquals(17, profile.path("jvmMajor").asInt(), e.toString());
            assertEquals("amd64", profile.path("arch").asText(), e.toString());
        }
        String wide = registered.get("java17").path("deviceClass").asText();
        int bits = registered.get("java17").path("profile").path("vectorBits").asInt();
        assertTrue(bits >= 128 && wide.contains("-jdk17-") && wide.contains(bits + "-jdk17-"), wide);
        JsonNode narrow = registered.get("java17-128");
        assertEquals(128, narrow.path("profile").path("vectorBits").asInt());
        assertTrue(narrow.path("deviceClass").asText().contains("-sse128-jdk17-"), narrow.toString());
        JsonNode scalar = registered.get("java17-scalar");
        assertEquals(0, scalar.path("profile").path("vectorBits").asInt());
        assertTrue(scalar.path("deviceClass").asText().contains("-x86scalar-jdk17-"), scalar.toString());
        assertEquals(3, registered.values().stream().map(a -> a.path("deviceClass").asText()).distinct().count());

        assertTrue(agents.get("java17").logText().contains("a JDK 21 or newer"), agents.get("java17").logText());
        assertTrue(agents.get("java17-scalar").logText().contains("started without --add-modules jdk.incubator.vector"),
                agents.get("java17-scalar").logText());
    }

    @Test void aSmallGemmSweepVerifiesEveryCandidateOnEachClass() throws Exception {
        Map<String, String> classOf = new HashMap<>();
        registered.forEach((id, a) -> classOf.put(a.path("deviceClass").asText(), id));
        String id = farm.submit("""
                name: java17-gemm
                kernel: gemm
                shapes: [{M: 24, N: 40, K: 24}]
                space: {threads: [1]}
                strategy: {name: random, budget: 6, seed: 5}
                measure: {minSamples: 1, minSampleMs: 1, maxWarmupMs: 0, timeoutMs: 60000, finalists: 0}
                batchSize: 7
                deviceClasses: [%s]
                """.formatted(String.join(", ", classOf.keySet())));
        farm.awaitDone(id, Duration.ofMinutes(4), () -> agents.values().stream().allMatch(BoardAgent::alive), "an agent exited; logs in " + data);

        Map<String, Integer> measured = new HashMap<>();
        Map<String, Integer> vectors = new HashMap<>();
        for (Measurement m : farm.records(id)) {
            String agent = classOf.get(m.deviceClass());
            assertNotNull(agent, "a record of a class no agent registered: " + m);
            assertEquals(Status.OK, m.status(), m.toString());
            assertTrue(m.maxError() != null && m.maxError() < 1e-3, "every answer was checked: " + m);
            measured.merge(agent, 1, Integer::sum);
            if (m.params().get("kernel").equals("vector")) vectors.merge(agent, 1, Integer::sum);
        }
        assertEquals(Map.of("java17", 6, "java17-128", 6, "java17-scalar", 6), measured, "a budget of six trials on each class, the baseline among them");
        assertTrue(vectors.getOrDefault("java17", 0) > 0 && vectors.getOrDefault("java17-128", 0) > 0, "the vector kernels ran: " + vectors);
        assertEquals(0, vectors.getOrDefault("java17-scalar", 0), "without the Vector API only scalar variants are lent");
    }
}
