package org.tunefarm.coordinator;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;

/**
 * A Raspberry Pi's sensors end to end: a real agent process whose config points {@code sensors:}
 * at a copy of the fake Pi 4 sysfs tree and at the fake vcgencmd (both from the agent's test
 * resources) runs a sleep sweep for a real coordinator, and every record carries the Pi's CPU
 * temperature (not its hotter SSD's), its hardware clock and which file gave it, and its
 * throttle bits.
 */
class PiSensorsFarmTest {
    static final String TOKEN = "pi-sensors-token";
    static final Path AGENT_RESOURCES = Path.of("../agent/src/test/resources");

    @TempDir Path data;

    @Test void aPiAgentsRecordsCarryTemperatureClockAndThrottleBits() throws Exception {
        Path sys = copyTree(AGENT_RESOURCES.resolve("sysfs/pi4"), data.resolve("pi4-sys"));
        Path vcgencmd = Files.copy(AGENT_RESOURCES.resolve("vcgencmd/vcgencmd"), data.resolve("vcgencmd"));
        assertTrue(vcgencmd.toFile().setExecutable(true));
        Path config = Files.writeString(data.resolve("agent.yaml"), """
                labels: {board: rpi4}
                sensors:
                  sysfsRoot: pi4-sys
                  vcgencmd: ./vcgencmd
                """);
        CoordinatorConfig cc = TestFarm.config(data.resolve("farm")).withTokens(TOKEN, "");
        HttpClient http = HttpClient.newHttpClient();
        try (Coordinator coordinator = new Coordinator(cc).start();
             AgentProcess agent = AgentProcess.start("pi-1", List.of("127.0.0.1:" + cc.bridgePort()), TOKEN, data.resolve("agent.log"),
                     List.of("--config", config.toString()))) {
            String api = "http://127.0.0.1:" + coordinator.httpPort();
            await().atMost(Duration.ofSeconds(90)).until(() -> get(http, api + "/api/agents").size() == 1);
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(api + "/api/sweeps")).POST(HttpRequest.BodyPublishers.ofString("""
                    name: pi-sensors
                    kernel: sleep
                    shapes: [{unitUs: 2000}]
                    space: {a: [3, 4], b: [10, 11], mode: [fast]}
                    strategy: {name: exhaustive, budget: 0}
                    measure: {minSamples: 3, minSampleMs: 1, maxWarmupMs: 10, timeoutMs: 10000, finalists: 0}
                    batchSize: 2
                    """)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, r.statusCode(), r.body());
            String id = Protocol.JSON.readTree(r.body()).path("id").asText();
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
                assertTrue(agent.alive(), "the agent died; see " + agent.log());
                return "done".equals(get(http, api + "/api/sweeps/" + id).path("state").asText());
            });

            List<String> lines = new ArrayList<>();
            for (String line : Files.readAllLines(data.resolve("farm/records.jsonl"))) {
                if (Protocol.JSON.readValue(line, Measurement.class).sweepId().equals(id)) lines.add(line);
            }
            assertFalse(lines.isEmpty(), "no records of " + id);
            for (String line : lines) {
                Measurement m = Protocol.JSON.readValue(line, Measurement.class);
                // The bits say throttled now (0x5): the agent re-takes after cooling, and the board still says so.
                assertEquals(Status.THROTTLED, m.status(), line);
                assertTrue(m.thermal() != null && m.thermal().throttle().contains("0x50005"), line);
                for (SensorReading s : List.of(m.before(), m.after())) {
                    // The tree's SSD (drivetemp) reads 74 °C; the firmware holds the ARM at 1 GHz while the governor asks for 1.8.
                    assertEquals(new SensorReading(71.568, 1000.0, null, "thermal_zone0:cpu-thermal", "cpuinfo_cur_freq", 1800.0, null, 0x50005), s, line);
                    assertTrue(s.throttledNow(), line);
                }
            }
            System.out.println("pi4 record: " + lines.get(0));
            JsonNode sensors = get(http, api + "/api/agents").get(0).path("sensors");
            assertEquals(71.568, sensors.path("temperatureC").asDouble(), sensors.toString());
            assertEquals(0x50005, sensors.path("throttled").asInt(), "the heartbeat carries the bits too: " + sensors);
        }
    }

    private static JsonNode get(HttpClient http, String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body());
    }

    private static Path copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(t);
                else Files.copy(f, t);
            }
        }
        return to;
    }
}
