package org.tunefarm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.protocol.Protocol;
import picocli.CommandLine;

/** The benches' smoke modes: each prints, last, a JSON line with the documented fields (values not checked). */
class BenchCommandsTest {

    private static JsonNode lastLine(String... args) throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int code;
        try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            code = new CommandLine(new BenchMain()).execute(args);
        } finally {
            System.setOut(saved);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
        return Protocol.JSON.readTree(lines.get(lines.size() - 1));
    }

    @Test
    void fidelityQuickEndsWithItsJsonLine() throws Exception {
        // In this JVM: the test's class path is not a runnable worker class path under every runner.
        JsonNode j = lastLine("fidelity", "--quick", "--in-process");
        for (String f : List.of("kendallTau", "medianCv", "maxRankShift", "maxCv", "points", "failures", "interleavedKendallTau", "interleavedMedianCv")) assertTrue(j.has(f), f + " in " + j);
    }

    @Test
    void kernelsQuickEndsWithItsJsonLine() throws Exception {
        JsonNode j = lastLine("kernels", "--quick");
        for (String f : List.of("gemmTunedOverOpenblasMin", "convTunedOverIm2colOpenblasGeomean", "tunedOverEjmlMin", "cases",
                "vectorBits", "timedRegion", "roofline", "convByType", "openblasCore", "openblasIsaCore", "gemmTunedOverOpenblasIsaMin")) assertTrue(j.has(f), f + " in " + j);
        // OpenBLAS's AVX-512 set is measured beside it only where it picked another set for a 512-bit JVM.
        boolean isa = !j.path("openblasIsaCore").isNull();
        if (isa) assertTrue(VectorWidth.bits() >= 512 && !j.path("openblasCore").asText().equals(j.path("openblasIsaCore").asText()), j.toString());
        // --quick's two tiny layers: a 3x3 conv2d against im2col + OpenBLAS, a depthwise one against the direct C loop.
        assertTrue(j.path("convByType").has("3x3") && j.path("convByType").has("depthwise"), j.path("convByType").toString());
        assertTrue(j.path("convByType").path("depthwise").path("t1").asDouble() > 0, "the direct C depthwise baseline ran: " + j.path("convByType"));
        assertTrue(j.get("cases").size() > 0);
        int conv = 0;
        for (JsonNode c : j.get("cases")) {
            // --quick runs the conv path on one tiny layer: its cases carry the conv fields instead.
            boolean isDepthwise = c.path("case").asText().startsWith("depthwise ");
            boolean isConv = isDepthwise || c.path("case").asText().startsWith("conv ");
            conv += isConv ? 1 : 0;
            List<String> fields = isDepthwise ? List.of("tunedGflops", "directCGflops", "defaultGflops", "tunedOverDirectC", "type")
                    : isConv ? List.of("tunedGflops", "im2colOpenblasGflops", "defaultGflops", "tunedOverIm2colOpenblas", "type")
                    : List.of("tunedGflops", "openblasGflops", "ejmlGflops", "defaultGflops", "peakGflops");
            for (String f : fields) assertTrue(c.has(f), f + " in " + c);
            if (isConv) {
                assertEquals(2, c.path("repetitions").asInt(), c.toString());
                continue;
            }
            // Every GEMM variant ran in each of --quick's two interleaved rounds, and its ratios have their spread.
            assertEquals(2, c.path("repetitions").asInt(), c.toString());
            for (String f : List.of("defaultGflops", "tunedGflops", "ejmlGflops")) assertTrue(c.path(f).asDouble() > 0, f + " in " + c);
            assertEquals(isa, c.path("openblasIsaGflops").asDouble() > 0 && c.path("tunedOverOpenblasIsa").asDouble() > 0, c.toString());
            for (String f : List.of("tunedOverDefault", "tunedOverDefaultT1", "tunedOverEjml")) {
                assertTrue(c.path(f + "Min").asDouble() <= c.path(f).asDouble() && c.path(f).asDouble() <= c.path(f + "Max").asDouble(), f + " in " + c);
            }
            if (c.path("case").asText().startsWith("gemm 1x")) assertTrue(c.has("tunedOverRoofline"), c.toString());
            // Wider than 128 bits here: each case also ran at 128 in a worker JVM beside one at the native width.
            if (VectorWidth.available() && VectorWidth.bits() > 128) {
                assertEquals(128, c.path("narrowBits").asInt(), c.toString());
                for (String f : List.of("nativeInWorkerGflops", "narrowInWorkerGflops", "narrowOverNative")) assertTrue(c.path(f).asDouble() > 0, f + " in " + c);
                if (c.path("case").asText().startsWith("gemm 1x")) assertFalse(c.has("narrowOverNativePerLane"), c.toString());
                else assertEquals(c.path("narrowOverNative").asDouble() * VectorWidth.bits() / 128, c.path("narrowOverNativePerLane").asDouble(),
                        0.005 + 0.005 * VectorWidth.bits() / 128, c.toString()); // both figures rounded to 0.01
            }
        }
        assertTrue(conv > 0, "no conv case in " + j);
    }

    @Test
    void lookupQuickEndsWithItsJsonLine() throws Exception {
        JsonNode j = lastLine("lookup", "--quick");
        for (String f : List.of("hashMapGetNs", "exactNs", "nearestNs", "defaultNs", "exactOverHashMap", "nearestOverHashMap",
                "defaultOverHashMap", "bytesPerLookup", "underOneMicrosecond")) assertTrue(j.has(f), f + " in " + j);
        assertEquals(2000, j.get("entries").asInt());
    }
}
