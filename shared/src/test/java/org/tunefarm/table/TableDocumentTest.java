package org.tunefarm.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
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

/** The shipped document: its header fields derive from its entries, and it reads back as it was written. */
class TableDocumentTest {
    static final DeviceProfile ZEN = new DeviceProfile("AMD EPYC 9B14", "Zen 4", 2, 2, 32, 1024, 32768, 16, "Linux", "amd64",
            "Eclipse Adoptium", 25, 512, List.of(), Map.of());
    static final DeviceProfile PI = new DeviceProfile("Cortex-A76", "a76", 4, 4, 64, 512, 2048, 8, "Linux", "aarch64",
            "Debian", 17, 0, List.of(), Map.of());
    static final DeviceProfile ELSEWHERE = new DeviceProfile("Other", "x", 1, 1, 0, 0, 0, 1, "Linux", "riscv64", "v", 21, 128, List.of(), Map.of());
    static final KernelKey GEMM = new KernelKey("gemm", Map.of("M", 64, "N", 64, "K", 64), "fp32");

    static TableEntry measured(DeviceProfile p, String sweep, long index, double ns) {
        Measurement m = new Measurement(sweep, GEMM, index, Map.of("tile", (int) index), Status.OK, Stats.of(new double[] {ns}, 1), 0.0,
                SensorReading.NONE, SensorReading.NONE, "", "a1", p.deviceClass(), 1_000, 2_000, 0);
        return TableEntry.of(m, 2.0 * 64 * 64 * 64);
    }

    @Test void sweepsAndClassesComeFromTheEntries() throws Exception {
        BestKernelTable t = BestKernelTable.of(List.of(
                measured(ZEN, "s-b", Lease.Candidate.BASELINE, 1e6), measured(ZEN, "s-b", 3, 5e5),
                measured(PI, "s-a", 2, 7e5), measured(PI, "s-c", 4, 9e5)));
        TableDocument d = TableDocument.of("farm-1", 42, t.entries(), Map.of(ZEN.deviceClass(), ZEN, ELSEWHERE.deviceClass(), ELSEWHERE));
        assertEquals(BestKernelTable.SCHEMA, d.schema());
        assertEquals("tunefarm.table/2", d.schema());
        // the winners' sweeps only (s-c lost to s-a on the Pi), sorted
        assertEquals(List.of("s-a", "s-b"), d.sweeps());
        // only the entries' classes, and only those the farm knows: the Pi's profile is unknown here
        assertEquals(List.of(ZEN.deviceClass()), List.copyOf(d.classes().keySet()));

        JsonNode json = Protocol.JSON.readTree(Protocol.write(d));
        assertEquals(List.of("schema", "farmId", "generatedAt", "sweeps", "classes", "entries"), fields(json));
        JsonNode zen = json.path("classes").path(ZEN.deviceClass());
        assertEquals("avx512", zen.path("isa").asText());
        assertEquals("AMD EPYC 9B14", zen.path("cpuModel").asText());
        assertEquals(512, zen.path("vectorBits").asInt());
        // the profile reads back from its readable form (isa is an unknown field to the record)
        assertEquals(ZEN, Protocol.JSON.treeToValue(zen, DeviceProfile.class));

        JsonNode pi = json.path("entries").get(0);
        assertEquals(PI.deviceClass(), pi.path("deviceClass").asText(), "entries in slot order");
        assertEquals(true, pi.path("defaultParams").isNull(), "no baseline measured on the Pi: " + pi);
        JsonNode e = json.path("entries").get(1);
        assertEquals(List.of("deviceClass", "objective", "kernel", "params", "defaultParams"), fields(e).subList(0, 5));
        assertEquals("latency", e.path("objective").asText());
        assertEquals(-1, e.path("defaultParams").path("tile").asInt(), "the baseline record's params");
        assertEquals(2.0, e.path("speedupOverDefault").asDouble());
        assertEquals(d, Protocol.JSON.readValue(Protocol.write(d), TableDocument.class));
    }

    @Test void isaNamesTheVectorFamilyAndWidthAsTheClassDoes() {
        assertEquals("avx512", ZEN.isa());
        assertEquals("armscalar", PI.isa());
        assertEquals("riscv64128", ELSEWHERE.isa());
        assertEquals(true, ZEN.deviceClass().contains("-" + ZEN.isa() + "-"));
    }

    static List<String> fields(JsonNode n) {
        List<String> out = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
