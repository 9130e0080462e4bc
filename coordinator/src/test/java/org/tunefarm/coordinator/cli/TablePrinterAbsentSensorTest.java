package org.tunefarm.coordinator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunefarm.protocol.Protocol;

/** {@code table show}: a board without a temperature sensor reads "n/a", never 0. */
class TablePrinterAbsentSensorTest {

    @Test void anAbsentTemperatureIsNaNotZero() throws Exception {
        String entry = """
                {"deviceClass": "%s", "objective": "latency", "kernel": {"op": "sleep", "shape": {"unitUs": 100}, "dtype": "fp32"},
                 "params": {"a": 3}, "stats": {"medianNs": 1.0E6}, "gflops": null, "speedupOverDefault": null, "temperatureC": %s}""";
        String doc = "{\"schema\": \"tunefarm.table/2\", \"entries\": [" + entry.formatted("phone", "null") + "," + entry.formatted("pi", "71.6") + "]}";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TablePrinter.print(Protocol.JSON.readTree(doc), new PrintStream(out, true, StandardCharsets.UTF_8));
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(3, lines.size(), lines.toString());
        List<String> phone = Arrays.asList(lines.get(1).split("\\s+"));
        assertTrue(phone.contains("n/a"), lines.get(1));
        assertFalse(phone.contains("0"), lines.get(1));
        assertTrue(Arrays.asList(lines.get(2).split("\\s+")).contains("72"), lines.get(2));
    }
}
