package org.tunefarm.coordinator.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.Status;

/** A Kernel Tuner cache as records: statuses, timings, refusals, and the files that are refused whole. */
class KernelTunerImportTest {
    static final long NOW = 1_800_000_000_000L;

    static String cache(String entries) {
        return """
                {"device_name": "NVIDIA GeForce RTX 3090", "kernel_name": "cn_pnpoly", "problem_size": [4096, 2048],
                 "tune_params_keys": ["block_size_x", "tile"], "tune_params": {"block_size_x": [32, 64], "tile": [1, 2, 4]},
                 "objective": "time", "cache": {%s}}""".formatted(entries);
    }

    static KernelTunerImport.Batch read(String body) throws KernelTunerImport.Invalid {
        return KernelTunerImport.read(body.getBytes(StandardCharsets.UTF_8), "rtx3090", NOW);
    }

    @Test void timesBecomeOkRecordsAndKernelTunerFailuresTheirStatuses() throws Exception {
        KernelTunerImport.Batch b = read(cache("""
                "32,1": {"block_size_x": 32, "tile": 1, "time": 2.5, "times": [2.0, 3.0, 2.5, 9.0], "compile_time": 100.0,
                         "timestamp": "2023-01-26 01:05:09.730633+00:00"},
                "32,2": {"block_size_x": 32, "tile": 2, "time": 1.25},
                "64,1": {"block_size_x": 64, "tile": 1, "time": "InvalidConfig"},
                "64,2": {"block_size_x": 64, "tile": 2, "time": "CompilationFailedConfig"},
                "64,4": {"block_size_x": 64, "tile": 4, "time": "RuntimeFailedConfig"}"""));
        assertEquals("cn_pnpoly[x=4096,y=2048]:unknown", b.kernel().id());
        assertEquals("NVIDIA GeForce RTX 3090", b.device());
        assertTrue(b.sweepId().matches("kt-[0-9a-f]{12}"), b.sweepId());
        List<Measurement> ms = b.measurements();
        assertEquals(List.of(Status.OK, Status.OK, Status.INVALID, Status.BUILD_FAILED, Status.CRASH), ms.stream().map(Measurement::status).toList());
        Measurement first = ms.get(0);
        assertEquals(2.75e6, first.stats().medianNs(), 1e-3, "the median of the samples, in ns");
        assertEquals(2.0e6, first.stats().minNs(), 1e-3);
        assertEquals(4, first.stats().samples());
        assertEquals(1674695109730L, first.finishedAt(), "Kernel Tuner's timestamp");
        assertEquals(Map.of("block_size_x", 32, "tile", 1), first.params());
        assertEquals(0, first.index(), "mixed radix: block_size_x is the most significant digit");
        assertEquals(1.25e6, ms.get(1).stats().medianNs(), 1e-3, "time alone: one sample");
        assertEquals(1, ms.get(1).stats().samples());
        assertEquals(NOW, ms.get(1).finishedAt(), "no timestamp: the time of the import");
        assertEquals(3 + 2, ms.get(4).index());
        assertNull(ms.get(2).stats());
        assertTrue(ms.get(3).detail().startsWith("CompilationFailedConfig"), ms.get(3).detail());
        assertEquals("rtx3090", first.deviceClass());
        assertEquals(KernelTunerImport.AGENT, first.agentId());
        assertTrue(b.refused().isEmpty());
    }

    @Test void theSweepIdFollowsTheFileSoTheSameFileMakesTheSameRecords() throws Exception {
        String body = cache("\"32,1\": {\"block_size_x\": 32, \"tile\": 1, \"time\": 2.5}");
        assertEquals(read(body).measurements().get(0).recordId(), read(body).measurements().get(0).recordId());
        assertTrue(!read(body).sweepId().equals(read(body.replace("2.5", "2.6")).sweepId()), "another file, another sweep");
    }

    @Test void configurationsThatCannotBeRecordsAreRefusedWithTheReason() throws Exception {
        KernelTunerImport.Batch b = read(cache("""
                "32,1": {"block_size_x": 32, "tile": 1, "time": 2.5},
                "32,8": {"block_size_x": 32, "tile": 8, "time": 2.5},
                "64,1": {"block_size_x": 64, "time": 2.5},
                "64,2": {"block_size_x": 64, "tile": 2, "time": -1},
                "64,4": {"block_size_x": 64, "tile": 4},
                "again": {"block_size_x": 32, "tile": 1, "time": 3.5}"""));
        assertEquals(1, b.measurements().size());
        assertEquals(List.of(
                new KernelTunerImport.Refused("32,8", "parameter 'tile' = 8 is not in tune_params"),
                new KernelTunerImport.Refused("64,1", "no value for parameter 'tile'"),
                new KernelTunerImport.Refused("64,2", "time is not a positive number of ms below an hour"),
                new KernelTunerImport.Refused("64,4", "no time"),
                new KernelTunerImport.Refused("again", "the same configuration as '32,1'")), b.refused());
    }

    @Test void aFileCutShortGivesTheConfigurationsWrittenInFull() throws Exception {
        String whole = cache("\"32,1\": {\"block_size_x\": 32, \"tile\": 1, \"time\": 2.5},\n\"32,2\": {\"block_size_x\": 32, \"tile\": 2, \"time\": 1.5}");
        KernelTunerImport.Batch b = read(whole.substring(0, whole.indexOf("\"32,2\"") + 20));
        assertTrue(b.truncated());
        assertEquals(1, b.measurements().size());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "not json at all | body",
            "[1, 2] | body",
            "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"kernel_name\": \"k\"} | cache",
            "{\"kernel_name\": \"k\", \"tune_params\": {\"a\": [1]}, \"cache\": {}} | tune_params_keys",
            "{\"kernel_name\": \"k\", \"tune_params_keys\": [\"a\"], \"tune_params\": {\"b\": [1]}, \"cache\": {}} | tune_params.a",
            "{\"kernel_name\": \"gemm\", \"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"cache\": {}} | kernel_name",
            "{\"kernel_name\": \"k\", \"problem_size\": [1, 0], \"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"cache\": {}} | problem_size[1]",
            "{\"kernel_name\": \"k\", \"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"cache\": {\"1\": {\"a\": 1, \"time\": \"ThrottledConfig\"}}} | cache[\"1\"].time",
            "{\"kernel_name\": \"k\", \"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"cache\": {\"1\": 7}} | cache[\"1\"]"})
    void aFileThatIsNotACacheIsRefusedWholeNamingTheField(String body, String field) {
        KernelTunerImport.Invalid e = assertThrows(KernelTunerImport.Invalid.class, () -> read(body));
        assertEquals(field, e.field(), e.getMessage());
    }

    @Test void theDeviceClassMustBeANameOfReasonableLength() {
        String body = cache("");
        for (String bad : new String[] {"", "a b", "x".repeat(129)}) {
            KernelTunerImport.Invalid e = assertThrows(KernelTunerImport.Invalid.class,
                    () -> KernelTunerImport.read(body.getBytes(StandardCharsets.UTF_8), bad, NOW));
            assertEquals("deviceClass", e.field());
        }
    }
}
