package org.tunefarm.coordinator.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.protocol.Protocol;

/** {@code tunefarm table diff OLD NEW} on hand-written tables: what it reports, and its exit code. */
class TableDiffTest {
    static final String A = "zen4-2c-avx512-jdk25-aaaa0001";
    static final String SHAPE = "\"K\": 512, \"M\": 512, \"N\": 512";
    @TempDir Path dir;

    CliRun diff(String older, String newer, String... options) throws Exception {
        Path o = dir.resolve("old.json"), n = dir.resolve("new.json");
        Files.writeString(o, older);
        Files.writeString(n, newer);
        List<String> args = new ArrayList<>(List.of("table", "diff", o.toString(), n.toString()));
        args.addAll(List.of(options));
        return CliRun.of(args.toArray(String[]::new));
    }

    static Tables gemm(double medianNs, String params) {
        return new Tables().entry(A, "c_gemm", SHAPE, "fp32", params, medianNs, null, null);
    }

    @Test void aWinnerSlowerThanTheToleranceFailsWithExitThree() throws Exception {
        CliRun r = diff(gemm(1.0e6, "\"T\": 32").v2(), gemm(1.1e6, "\"T\": 32").v2());
        System.out.print(r.out());
        assertEquals(3, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("slower   " + A + "  c_gemm[K=512,M=512,N=512]:fp32  T=32  1.000 ms -> 1.100 ms  0.91x  SLOWER"), r.out());
        assertTrue(r.out().contains("0 new, 0 changed, 0 gone, 1 same winner; 1 slower by more than 5.0%"), r.out());
    }

    @Test void withinTheToleranceOrFasterIsExitZero() throws Exception {
        assertEquals(0, diff(gemm(1.0e6, "\"T\": 32").v2(), gemm(1.04e6, "\"T\": 32").v2()).code(), "4% slower is within 5%");
        assertEquals(3, diff(gemm(1.0e6, "\"T\": 32").v2(), gemm(1.04e6, "\"T\": 32").v2(), "--tolerance", "0.02").code(), "but not within 2%");
        CliRun faster = diff(gemm(1.0e6, "\"T\": 32").v2(), gemm(0.5e6, "\"T\": 32").v2());
        assertEquals(0, faster.code());
        assertTrue(faster.out().contains("faster   " + A + "  c_gemm[K=512,M=512,N=512]:fp32  T=32  1.000 ms -> 0.500 ms  2.00x"), faster.out());
    }

    @Test void aChangedWinnerShowsBothParameterSetsAndTheSpeedup() throws Exception {
        CliRun r = diff(gemm(2.0e6, "\"T\": 32, \"U\": 1").v2(), gemm(1.0e6, "\"U\": 4, \"T\": 64").v2());
        assertEquals(0, r.code());
        assertTrue(r.out().contains("changed  " + A + "  c_gemm[K=512,M=512,N=512]:fp32  T=32 U=1 -> T=64 U=4  2.000 ms -> 1.000 ms  2.00x"), r.out());
        CliRun slower = diff(gemm(1.0e6, "\"T\": 32").v2(), gemm(2.0e6, "\"T\": 64").v2());
        assertEquals(3, slower.code(), "a changed winner that got slower fails too");
        assertTrue(slower.out().contains("0.50x  SLOWER"), slower.out());
    }

    @Test void newAndGoneEntriesAreListedAndDoNotFail() throws Exception {
        String older = gemm(1.0e6, "\"T\": 32").entry("old-class", "c_gemm", SHAPE, "fp32", "\"T\": 8", 3e6, null, null).v2();
        String newer = gemm(1.0e6, "\"T\": 32").entry(A, "c_gemm", "\"K\": 64, \"M\": 64, \"N\": 64", "fp32", "\"T\": 16", 2e4, null, null).v2();
        CliRun r = diff(older, newer);
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("new      " + A + "  c_gemm[K=64,M=64,N=64]:fp32  T=16  0.020 ms"), r.out());
        assertTrue(r.out().contains("gone     old-class  c_gemm[K=512,M=512,N=512]:fp32  T=8  3.000 ms"), r.out());
        assertFalse(r.out().contains("T=32"), "an unchanged winner is only counted: " + r.out());
        assertTrue(r.out().contains("1 new, 0 changed, 1 gone, 1 same winner; 0 slower"), r.out());
    }

    @Test void jsonIsMachineReadableAndSchemaOneReadsBesideTwo() throws Exception {
        Tables older = gemm(1.0e6, "\"T\": 32");
        CliRun r = diff(older.v1(), gemm(1.2e6, "\"T\": 64").v2(), "--json");
        assertEquals(3, r.code(), r.out() + r.err());
        JsonNode j = Protocol.JSON.readTree(r.out());
        assertEquals("tunefarm.table/1", j.path("old").path("schema").asText());
        assertEquals("8c0e5c1e-2f8a-4a52-9b7e-3f1f4b8f0a11", j.path("new").path("farmId").asText());
        assertTrue(j.path("slower").asBoolean());
        assertEquals(1, j.path("counts").path("changed").asInt());
        JsonNode e = j.path("entries").get(0);
        assertEquals("changed", e.path("kind").asText());
        assertEquals(32, e.path("oldParams").path("T").asInt());
        assertEquals(64, e.path("newParams").path("T").asInt());
        assertEquals(1.0 / 1.2, e.path("speedup").asDouble(), 1e-12);
        assertTrue(e.path("slower").asBoolean());
    }

    @Test void objectivesAreDifferentEntries() throws Exception {
        String older = gemm(1.0e6, "\"T\": 32").v2();
        String newer = new Tables().entry(A, "energy", "c_gemm", SHAPE, "fp32", "\"T\": 32", 9e6, null, null).v2();
        CliRun r = diff(older, newer);
        assertEquals(0, r.code(), "another objective's winner is no slower latency winner: " + r.out());
        assertTrue(r.out().contains("1 new, 0 changed, 1 gone"), r.out());
    }

    @Test void anUnreadableFileSaysWhichAndWhy() throws Exception {
        CliRun r = diff("{\"schema\": \"tunefarm.table/2\", \"entries\": [{\"deviceClass\": \"c\"}]}", gemm(1e6, "\"T\": 1").v2());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("old.json: entries[0].kernel.op: missing"), r.err());
        CliRun bad = diff("not json", gemm(1e6, "\"T\": 1").v2());
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("old.json: not JSON"), bad.err());
        CliRun tolerance = diff(gemm(1e6, "\"T\": 1").v2(), gemm(1e6, "\"T\": 1").v2(), "--tolerance", "-1");
        assertEquals(2, tolerance.code());
        assertTrue(tolerance.err().contains("--tolerance"), tolerance.err());
    }
}
