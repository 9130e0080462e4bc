package org.tunefarm.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.tunefarm.space.SearchSpace;

class KernelTunerCacheTest {

    private static final String HEADER = """
            {"device_name": "Fake GPU", "kernel_name": "k", "problem_size": [8],
             "tune_params_keys": ["bx", "mode", "ratio"],
             "tune_params": {"bx": [16, 32, 64], "mode": ["a", "b"], "ratio": [0.5, 1]},
             "objective": "time",
             "cache": {
            "16,a,0.5": {"bx": 16, "mode": "a", "ratio": 0.5, "time": 3.0, "times": [9.0, 2.0, 2.5]},
            "32,a,1": {"bx": 32, "mode": "a", "ratio": 1, "time": 1.5},
            "64,b,0.5": {"bx": 64, "mode": "b", "ratio": 0.5, "time": "CompilationFailedConfig"},
            "64,b,1": {"bx": 64, "mode": "b", "ratio": 1, "time": 4.0, "times": [4.0, 5.0]}""";

    @TempDir Path dir;

    @Test
    void readsPlainFileWithFloatDomainAsStringsAndMedianTimes() throws IOException {
        Path f = dir.resolve("fake.json");
        Files.writeString(f, HEADER + "}}\n");
        RecordedSpace r = KernelTunerCache.read(f);
        assertEquals("fake", r.name());
        assertEquals(4, r.size());
        assertEquals(1, r.failedCount());
        assertFalse(r.truncated());
        SearchSpace s = r.space();
        assertEquals(java.util.List.of("0.5", "1"), s.parameter("ratio").values());
        long first = s.index(Map.of("bx", 16, "mode", "a", "ratio", "0.5"));
        assertEquals(2.5, r.time(first).orElseThrow(), 1e-12, "median of times, not the mean");
        assertEquals(4.5, r.time(s.index(Map.of("bx", 64, "mode", "b", "ratio", "1"))).orElseThrow(), 1e-12);
        long failed = s.index(Map.of("bx", 64, "mode", "b", "ratio", "0.5"));
        assertTrue(r.time(failed).isEmpty());
        assertEquals("CompilationFailedConfig", r.failure(failed));
        assertEquals(1.5, r.optimum(), 1e-12);
        assertEquals(4, s.countValid(), "only recorded configurations are valid");
        assertFalse(s.isValid(s.index(Map.of("bx", 16, "mode", "b", "ratio", "1"))));
    }

    @Test
    void acceptsGzippedFileCutMidEntry() throws IOException {
        Path f = dir.resolve("cut.json.gz");
        String cut = HEADER + ",\n\"16,b,1\": {\"bx\": 16, \"mode\": \"b\", \"rat";
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
            out.write(cut.getBytes(StandardCharsets.UTF_8));
        }
        RecordedSpace r = KernelTunerCache.read(f);
        assertTrue(r.truncated());
        assertEquals(4, r.size(), "the half-written entry is dropped, the complete ones kept");
        assertEquals("cut", r.name());
    }

    @Test
    void acceptsFileMissingOnlyItsClosingBraces() throws IOException {
        Path f = dir.resolve("open.json");
        Files.writeString(f, HEADER + "\n");
        RecordedSpace r = KernelTunerCache.read(f);
        assertEquals(4, r.size());
        assertTrue(r.truncated());
    }

    @Test
    void readsEveryProvidedSpace() throws IOException {
        Path spaces = SpacesFolder.find();
        assumeTrue(spaces != null, "shared/data/spaces not found beside the repository");
        Map<String, int[]> expected = Map.of(
                "convolution_A100", new int[] {4362, 161}, "convolution_A4000", new int[] {4362, 161},
                "dedispersion_A100", new int[] {11130, 0}, "gemm_RTX_3090", new int[] {17956, 0},
                "pnpoly_RTX_3090", new int[] {4092, 318});
        for (Map.Entry<String, int[]> e : expected.entrySet()) {
            Path f = spaces.resolve(e.getKey() + ".json.gz");
            if (!Files.exists(f)) continue;
            RecordedSpace r = KernelTunerCache.read(f);
            assertEquals(e.getValue()[0], r.size(), e.getKey());
            assertEquals(e.getValue()[1], r.failedCount(), e.getKey());
            assertTrue(r.optimum() > 0 && Double.isFinite(r.optimum()), e.getKey());
            int walked = 0;
            for (Iterator<Long> it = r.space().validIndices(); it.hasNext(); it.next()) walked++;
            assertEquals(r.size(), walked, e.getKey());
        }
    }
}
