package org.tunefarm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;

class ProtocolTest {

    static final KernelKey KEY = new KernelKey("sleep", Map.of("unitUs", 100), "fp32");
    static final DeviceProfile PROFILE = new DeviceProfile("AMD Ryzen 9 7950X", "zen4", 16, 32, 32, 1024, 65536, 64, "Linux 6.8",
            "amd64", "Eclipse Adoptium", 25, 512, List.of("NVIDIA H200"), Map.of("rack", "r2"));

    static Measurement measurement(long index, Status status) {
        Stats stats = status == Status.OK ? Stats.of(new double[] {120.5, 118.25, 130.0}, 64) : null;
        return new Measurement("sw1", KEY, index, Map.of("a", 5, "b", 11, "mode", "fast"), status, stats,
                status == Status.OK ? 0.0 : null, new SensorReading(41.5, 3600.0, null), new SensorReading(47.0, 3550.0, 12.5),
                status == Status.OK ? "" : "killed after 30000 ms", "agent-1", "zen4-16c-jdk25", 1_700_000_000_000L, 1_700_000_000_500L, 3);
    }

    static Lease lease() {
        return new Lease("lease-1", "sw1", "agent-1", KEY,
                List.of(new Lease.Candidate(Lease.Candidate.BASELINE, Map.of("a", 0, "b", 0, "mode", "fast")),
                        new Lease.Candidate(187, Map.of("a", 5, "b", 13, "mode", "slow"))),
                MeasureSettings.DEFAULTS, 1_700_000_123_000L);
    }

    static Stream<Arguments> messages() {
        return Stream.of(
                Arguments.of(new Register("agent-1", PROFILE, List.of("gemm", "sleep"))),
                Arguments.of(new Register("agent-1", PROFILE, List.of("gemm", "sleep", "c_sgemm"), List.of(org.tunefarm.kernel.CommandKernelSpecTest.SGEMM))),
                Arguments.of(new Registered("agent-1", "zen4-16c-jdk25", 1000)),
                Arguments.of(new Heartbeat("agent-1", "lease-1", new SensorReading(55.0, null, 3.25))),
                Arguments.of(new Heartbeat("agent-1", null, SensorReading.NONE)),
                Arguments.of(new Pull("agent-1")),
                Arguments.of(Work.of(lease())),
                Arguments.of(Work.none(500)),
                Arguments.of(new Report("agent-1", "lease-1", List.of(measurement(-1, Status.OK), measurement(187, Status.TIMEOUT)), true)),
                Arguments.of(Ack.ok(2)),
                Arguments.of(Ack.refused("leaseId: unknown lease x")));
    }

    /** Doubles are read by the fast parser: every value must still be the one {@code Double.parseDouble} reads. */
    @Test
    void doublesReadAsTheJdkReadsThem() throws Exception {
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            double d = switch (i % 4) {
                case 0 -> Double.longBitsToDouble(r.nextLong()); // any bit pattern: subnormals, huge exponents
                case 1 -> r.nextDouble() * 1e9;                   // nanoseconds, as statistics hold them
                case 2 -> Math.rint(r.nextDouble() * 1e6) / 1e3; // few digits
                default -> r.nextDouble();
            };
            if (!Double.isFinite(d)) continue;
            String text = i % 8 < 4 ? Double.toString(d) : String.format("%.17g", d);
            assertEquals(Double.parseDouble(text), Protocol.JSON.readValue(text, Double.class), text);
        }
    }

    @Test
    void aRegisterFromAnAgentBeforeCommandKernelsStillReads() {
        ObjectNode n = Protocol.JSON.valueToTree(new Register("agent-1", PROFILE, List.of("gemm")));
        n.remove("commandKernels");
        Register r = Protocol.read(n.toString(), Register.class);
        assertEquals(List.of(), r.commandKernels());
        assertEquals(1, r.v());
    }

    @ParameterizedTest
    @MethodSource("messages")
    void everyMessageSurvivesWriteThenRead(Record message) {
        String json = Protocol.write(message);
        assertEquals(message, Protocol.read(json, message.getClass()));
        assertTrue(json.contains("\"v\":" + Protocol.VERSION), json);
    }

    @ParameterizedTest
    @MethodSource("messages")
    void aMessageWithoutVersionIsRefusedNamingV(Record message) {
        ObjectNode n = Protocol.JSON.valueToTree(message);
        n.remove("v");
        ProtocolException e = assertThrows(ProtocolException.class, () -> Protocol.read(n.toString(), message.getClass()));
        assertTrue(e.getMessage().startsWith("v:"), e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("messages")
    void aMessageOfAnotherVersionIsRefusedNamingV(Record message) {
        for (Object v : List.of(Protocol.VERSION + 1, 0, "1", 1.5)) {
            ObjectNode n = Protocol.JSON.valueToTree(message);
            n.set("v", Protocol.JSON.valueToTree(v));
            ProtocolException e = assertThrows(ProtocolException.class, () -> Protocol.read(n.toString(), message.getClass()), "v=" + v);
            assertTrue(e.getMessage().startsWith("v:"), e.getMessage());
        }
    }

    @Test
    void aWrongTypeNamesTheFieldPath() {
        assertFieldRefused("{\"v\":1,\"agentId\":\"a\",\"leaseId\":\"l\",\"done\":true,\"measurements\":[{\"index\":\"seven\"}]}",
                Report.class, "measurements[0].index");
        assertFieldRefused("{\"v\":1,\"agentId\":\"a\",\"leaseId\":\"l\",\"measurements\":[{\"index\":1,\"stats\":{\"medianNs\":\"fast\"}}]}",
                Report.class, "measurements[0].stats.medianNs");
        assertFieldRefused("{\"v\":1,\"agentId\":\"a\",\"leaseId\":\"l\",\"measurements\":{}}", Report.class, "measurements");
        assertFieldRefused("{\"v\":1,\"lease\":{\"candidates\":[{\"index\":1},{\"index\":[]}]},\"retryMs\":0}", Work.class, "lease.candidates[1].index");
        assertFieldRefused("{\"v\":1,\"agentId\":\"a\",\"profile\":{\"physicalCores\":\"many\"},\"families\":[]}", Register.class, "profile.physicalCores");
        assertFieldRefused("{\"v\":1,\"agentId\":\"a\",\"leaseId\":null,\"sensors\":{\"temperatureC\":{}}}", Heartbeat.class, "sensors.temperatureC");
        // A well-formed name this version does not know ("GREAT") is read as an unknown status (records of newer
        // versions stay readable); the coordinator refuses it from an agent. Anything else is not a status at all.
        assertFieldRefused("{\"v\":1,\"agentId\":\"a\",\"leaseId\":\"l\",\"measurements\":[{\"status\":\"great!\"}]}", Report.class, "measurements[0].status");
        assertFieldRefused("{\"v\":1,\"agentId\":\"a\",\"leaseId\":\"l\",\"measurements\":[{\"status\":7}]}", Report.class, "measurements[0].status");
    }

    @Test
    void aNullForAPrimitiveNamesTheField() {
        assertFieldRefused("{\"v\":1,\"ok\":null,\"recorded\":0,\"message\":\"\"}", Ack.class, "ok");
    }

    private static void assertFieldRefused(String json, Class<?> type, String field) {
        ProtocolException e = assertThrows(ProtocolException.class, () -> Protocol.read(json, type));
        assertTrue(e.getMessage().startsWith(field + ":"), "expected '" + field + "' in: " + e.getMessage());
    }

    @Test
    void aBodyThatIsNotAnObjectIsRefused() {
        for (String body : List.of("[]", "1", "\"x\"", "null", "{", "")) {
            assertThrows(ProtocolException.class, () -> Protocol.read(body, Pull.class), body);
        }
    }

    @Test
    void deeplyNestedArraysAreRefusedWithoutStackOverflow() {
        String deep = "[".repeat(10_000);
        ProtocolException e = assertThrows(ProtocolException.class, () -> Protocol.read(deep, Pull.class));
        assertTrue(e.getMessage().startsWith("body"), e.getMessage());
        String closed = "[".repeat(10_000) + "]".repeat(10_000);
        assertThrows(ProtocolException.class, () -> Protocol.read(closed, Pull.class));
    }

    @Test
    void deeplyNestedValueInsideAMessageIsRefusedWithoutStackOverflow() {
        String deep = "{\"v\":1,\"agentId\":\"a\",\"x\":" + "{\"y\":".repeat(10_000) + "1" + "}".repeat(10_001);
        assertThrows(ProtocolException.class, () -> Protocol.read(deep, Pull.class));
        String params = "{\"v\":1,\"agentId\":\"a\",\"leaseId\":\"l\",\"measurements\":[{\"params\":{\"a\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}}]}";
        assertThrows(ProtocolException.class, () -> Protocol.read(params, Report.class));
    }
}
