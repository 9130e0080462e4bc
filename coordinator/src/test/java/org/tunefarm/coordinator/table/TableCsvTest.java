package org.tunefarm.coordinator.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.table.BestKernelTable;
import org.tunefarm.table.TableDocument;
import org.tunefarm.table.TableEntry;

/** The table as CSV: header lines, columns, RFC 4180 quoting, and empty (never 0) where a value is absent. */
class TableCsvTest {
    static final DeviceProfile BOARD = new DeviceProfile("Test CPU", "testarch", 2, 2, 32, 512, 32768, 16, "Linux", "amd64", "Test", 25, 256,
            List.of(), Map.of());
    /** A command kernel's flags: a string parameter with a comma and quotes in it. */
    static final KernelKey SGEMM = new KernelKey("sgemm", Map.of("N", 512, "M", 256, "K", 128), "fp32");

    static TableEntry measured(long index, Map<String, Object> params, double ns, Double temperature) {
        Measurement m = new Measurement("s-1", SGEMM, index, params, Status.OK, Stats.of(new double[] {ns}, 1), 0.0, SensorReading.NONE,
                new SensorReading(temperature, null, null), "", "board-1", BOARD.deviceClass(), 1_000, 2_000 + index, 0);
        return TableEntry.of(m, 2.0 * 512 * 256 * 128);
    }

    @Test void aDocumentBecomesCommentsAHeaderAndOneQuotedRowPerEntry() throws Exception {
        BestKernelTable t = BestKernelTable.of(List.of(
                measured(Lease.Candidate.BASELINE, Map.of("flags", "-O2", "tile", 8), 4e6, null),
                measured(7, Map.of("flags", "-O3,-funroll-loops \"fast\"", "tile", 32), 1e6, null)));
        TableDocument d = TableDocument.of("8c0e5c1e-2f8a-4a52-9b7e-3f1f4b8f0a11", 1_764_770_000_000L, t.entries(), Map.of());
        String csv = TableCsv.write(Protocol.JSON.valueToTree(d));

        assertTrue(csv.contains("\"flags=-O3,-funroll-loops \"\"fast\"\";tile=32\""), csv);
        CsvRows r = CsvRows.parse(csv);
        assertEquals(List.of("schema: tunefarm.table/2", "farmId: 8c0e5c1e-2f8a-4a52-9b7e-3f1f4b8f0a11", "generatedAt: 1764770000000",
                "sweeps: s-1"), r.comments);
        assertEquals(TableCsv.COLUMNS, r.header());
        assertEquals(2, r.rows.size(), "the header and the one entry");
        assertEquals(TableCsv.COLUMNS.size(), r.rows.get(1).size());
        assertEquals(BOARD.deviceClass(), r.get(0, "deviceClass"));
        assertEquals("latency", r.get(0, "objective"));
        assertEquals("sgemm", r.get(0, "op"));
        assertEquals("fp32", r.get(0, "dtype"));
        assertEquals("K=128;M=256;N=512", r.get(0, "shape"));
        assertEquals("flags=-O3,-funroll-loops \"fast\";tile=32", r.get(0, "params"));
        assertEquals("flags=-O2;tile=8", r.get(0, "defaultParams"));
        assertEquals(1e6, Double.parseDouble(r.get(0, "medianNs")));
        assertEquals(4.0, Double.parseDouble(r.get(0, "speedupOverDefault")));
        assertEquals(2.0 * 512 * 256 * 128 / 1e6, Double.parseDouble(r.get(0, "gflops")));
        assertEquals("", r.get(0, "temperatureC"), "no sensor: empty, never 0");
        assertEquals("s-1", r.get(0, "sweepId"));
        assertEquals("board-1", r.get(0, "agentId"));
        assertEquals("2007", r.get(0, "measuredAt"));
    }

    @Test void noBaselineLeavesDefaultParamsAndSpeedupEmpty() throws Exception {
        TableDocument d = TableDocument.of("f", 1, List.of(measured(3, Map.of("tile", 4), 2e6, 61.5)), Map.of());
        CsvRows r = CsvRows.parse(TableCsv.write(Protocol.JSON.valueToTree(d)));
        assertEquals("", r.get(0, "defaultParams"));
        assertEquals("", r.get(0, "speedupOverDefault"));
        assertEquals(61.5, Double.parseDouble(r.get(0, "temperatureC")));
    }

    @Test void fieldsAreQuotedOnlyWhenTheyMustBe() {
        assertEquals("plain", TableCsv.field("plain"));
        assertEquals("\"a,b\"", TableCsv.field("a,b"));
        assertEquals("\"say \"\"hi\"\"\"", TableCsv.field("say \"hi\""));
        assertEquals("\"two\r\nlines\"", TableCsv.field("two\r\nlines"));
        assertEquals("\"#not-a-comment\"", TableCsv.field("#not-a-comment"));
        assertEquals("", TableCsv.field(""));
    }
}
