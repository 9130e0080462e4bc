package org.tunefarm.coordinator.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.replay.KernelTunerCache;
import org.tunefarm.replay.RecordedSpace;

/** Kernel Tuner caches written from a table read back by the repository's own Kernel Tuner reader, and by the import. */
class KernelTunerExportTest {
    static final String EPYC = "zen4-2c-avx512-jdk25-aaaa0001";
    static final String DEFAULTS = "\"TM\": 16, \"TN\": 16, \"TK\": 16, \"UNROLL\": 1";

    static List<KernelTunerExport.Cache> caches() throws Exception {
        String doc = new Tables().profile(EPYC, "AMD EPYC 9B14")
                .entry(EPYC, "c_sgemm", "\"M\": 128, \"N\": 256, \"K\": 64", "fp32", "\"TM\": 32, \"TN\": 16, \"TK\": 64, \"UNROLL\": 4", 2.0e5, DEFAULTS, 9.0e5)
                .entry(EPYC, "gemm", "\"M\": 512, \"N\": 512, \"K\": 512", "fp32", "\"kernel\": \"vector\", \"tileM\": 64, \"prefetch\": true", 1.0e6, null, null)
                .entry("other-class", "c_sgemm", "\"M\": 128, \"N\": 256, \"K\": 64", "fp32", "\"TM\": 16, \"TN\": 16, \"TK\": 16, \"UNROLL\": 2", 3.0e5, null, null)
                .entry(EPYC, "energy", "c_sgemm", "\"M\": 128, \"N\": 256, \"K\": 64", "fp32", "\"TM\": 64, \"TN\": 64, \"TK\": 64, \"UNROLL\": 1", 4.0e5, null, null)
                .v2();
        return KernelTunerExport.caches(TableSnapshot.of(Protocol.JSON.readTree(doc)));
    }

    static RecordedSpace readBack(KernelTunerExport.Cache c) throws Exception {
        byte[] bytes = Protocol.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(c.json());
        return KernelTunerCache.read(new ByteArrayInputStream(bytes), "exported");
    }

    @Test void oneCachePerClassAndKernelOfTheLatencyEntries() throws Exception {
        List<KernelTunerExport.Cache> cs = caches();
        assertEquals(List.of("other-class c_sgemm[K=64,M=128,N=256]:fp32", EPYC + " c_sgemm[K=64,M=128,N=256]:fp32", EPYC + " gemm[K=512,M=512,N=512]:fp32"),
                cs.stream().map(c -> c.deviceClass() + " " + c.kernelId()).toList(), "classes in order, the energy entry left out");
        assertEquals("c_sgemm_64x128x256_fp32_" + EPYC + ".json", cs.get(1).fileName());
    }

    @Test void theRepositorysKernelTunerReaderReadsTheWinnerAndTheDefaultBack() throws Exception {
        KernelTunerExport.Cache c = caches().get(1);
        JsonNode j = c.json();
        assertEquals("AMD EPYC 9B14", j.path("device_name").asText(), "the class's CPU model names the device");
        assertEquals("[\"TK\",\"TM\",\"TN\",\"UNROLL\"]", j.path("tune_params_keys").toString());
        assertEquals("[64,128,256]", j.path("problem_size").toString(), "sizes in dimension-name order: K, M, N");
        assertEquals("[16,32]", j.path("tune_params").path("TM").toString());
        assertEquals("time", j.path("objective").asText());
        JsonNode winner = j.path("cache").path("64,32,16,4");
        assertEquals(0.2, winner.path("time").asDouble(), 1e-12, "the median in ms");
        assertEquals("2025-12-03 13:53:20.000000+00:00", winner.path("timestamp").asText());
        assertFalse(winner.has("times"), "the farm keeps statistics, not samples");

        RecordedSpace space = readBack(c);
        assertEquals("AMD EPYC 9B14", space.device());
        assertEquals("c_sgemm", space.kernel());
        assertEquals(2, space.size());
        assertEquals(0.2, space.optimum(), 1e-12);
        assertEquals(0.9, space.okTimes()[0] == 0.2 ? space.okTimes()[1] : space.okTimes()[0], 1e-12, "the default's time");
        var best = space.space().config(space.optimumIndex());
        assertEquals(32, best.get("TM"));
        assertEquals(4, best.get("UNROLL"));
    }

    @Test void stringAndBooleanParametersReadBackAsTheReaderKeepsThem() throws Exception {
        KernelTunerExport.Cache c = caches().get(2);
        assertTrue(c.json().path("cache").has("vector,True,64"), c.json().toString());
        RecordedSpace space = readBack(c);
        assertEquals(1, space.size());
        var best = space.space().config(space.optimumIndex());
        assertEquals("vector", best.get("kernel"));
        assertEquals("true", best.get("prefetch"), "a boolean domain is strings to the reader");
        assertEquals(1.0, space.optimum(), 1e-12);
    }

    @Test void theImportReadsAnExportBackAsTheSameKernel() throws Exception {
        KernelTunerExport.Cache c = caches().get(1);
        byte[] bytes = Protocol.JSON.writeValueAsString(c.json()).getBytes(StandardCharsets.UTF_8);
        KernelTunerImport.Batch b = KernelTunerImport.read(bytes, "board-x", System.currentTimeMillis());
        assertEquals("c_sgemm[K=64,M=128,N=256]:fp32", b.kernel().id());
        assertEquals(2, b.measurements().size());
        Measurement winner = b.measurements().stream().filter(m -> m.params().get("TM").equals(32)).findFirst().orElseThrow();
        assertEquals(Status.OK, winner.status());
        assertEquals(2.0e5, winner.stats().medianNs(), 1e-6);
        assertEquals(1764770000000L, winner.finishedAt());
    }
}
