package org.tunefarm.agent.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.harness.FamilyLookup;
import org.tunefarm.agent.harness.Harness;
import org.tunefarm.agent.testkernels.RogueFamily;

/** The protocol as bytes on the wire, served in-process. */
class WorkerLoopTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SETTINGS = "{\"minSamples\":2,\"minSampleMs\":0.5,\"maxWarmupMs\":10,\"steadyTolerance\":0.1,\"timeoutMs\":5000,\"seed\":42}";

    private static List<JsonNode> serve(String... requests) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        new WorkerLoop(FamilyLookup.of(new RogueFamily()), Harness.create())
                .serve(new BufferedReader(new StringReader(String.join("\n", requests))), out);
        List<JsonNode> lines = new java.util.ArrayList<>();
        for (String line : bytes.toString(StandardCharsets.UTF_8).split("\n")) lines.add(JSON.readTree(line));
        return lines;
    }

    private static String request(long seq, String op, String behaviour) {
        return "{\"seq\":" + seq + ",\"key\":{\"op\":\"" + op + "\",\"shape\":{\"n\":1},\"dtype\":\"fp32\"},"
                + "\"params\":{\"behaviour\":\"" + behaviour + "\"},\"settings\":" + SETTINGS + "}";
    }

    @Test
    void helloThenOneResponseLinePerRequest() throws Exception {
        List<JsonNode> lines = serve(request(1, RogueFamily.OP, "ok"), request(2, RogueFamily.OP, "wrong"), request(3, RogueFamily.OP, "nan"));
        assertEquals(4, lines.size());
        assertEquals(1, lines.get(0).get("protocol").asInt());
        assertEquals(ProcessHandle.current().pid(), lines.get(0).get("pid").asLong());

        JsonNode ok = lines.get(1);
        assertEquals(1, ok.get("seq").asLong());
        assertEquals("OK", ok.at("/outcome/status").asText());
        assertEquals(2, ok.at("/outcome/stats/samples").asInt());
        assertTrue(ok.at("/outcome/stats/medianNs").asDouble() >= 20_000);
        // No failure to tell; at most the note that a sample was preempted (this JVM's own JIT threads share the cores).
        String detail = ok.at("/outcome/detail").asText();
        assertTrue(detail.isEmpty() || detail.matches("\\d+ sample\\(s\\) set aside: another process preempted the kernel's threads \\(run delay\\)"), detail);

        assertEquals("WRONG_ANSWER", lines.get(2).at("/outcome/status").asText());
        assertTrue(lines.get(2).at("/outcome/stats").isNull());
        assertEquals(1.0, lines.get(2).at("/outcome/maxError").asDouble());
        // NaN is not JSON; Jackson writes it as a string that reads back as NaN.
        WorkerResponse nan = WorkerCodec.parse(JSON.writeValueAsString(lines.get(3)), WorkerResponse.class);
        assertTrue(nan.outcome().maxError().isNaN());
    }

    @Test
    void unknownOperationAndBadLinesAreCrashesNotDeaths() throws Exception {
        List<JsonNode> lines = serve(request(1, "conv9d", "ok"), "{not json", request(3, RogueFamily.OP, "ok"));
        assertEquals("CRASH", lines.get(1).at("/outcome/status").asText());
        assertTrue(lines.get(1).at("/outcome/detail").asText().contains("conv9d"));
        assertEquals(-1, lines.get(2).get("seq").asLong());
        assertEquals("CRASH", lines.get(2).at("/outcome/status").asText());
        assertEquals("OK", lines.get(3).at("/outcome/status").asText());
    }
}
