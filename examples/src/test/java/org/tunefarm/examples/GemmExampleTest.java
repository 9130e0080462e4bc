package org.tunefarm.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.GemmSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.lookup.Device;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.space.SearchSpace;

/**
 * The example end to end on a table made for this machine: its real device class (read as the
 * agent reads it), real GEMM parameter points (the family default and a vector point of the
 * space), small shapes and few samples; every answer verified against the reference.
 */
class GemmExampleTest {

    private static final GemmSpec SPEC = new GemmSpec();
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private record Run(int code, String out, String err) {}

    private static Run example(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = GemmExample.run(args, o, e);
        }
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A point of the space other than the default: register-blocked vectors where this JVM has them. */
    private static Map<String, Object> tunedPoint(KernelKey key) {
        Map<String, Object> p = new LinkedHashMap<>(SPEC.defaultConfig(key, CORES));
        if (!VectorWidth.available()) {
            p.putAll(Map.of("loopOrder", "ijk", "packB", 1));
        } else if (key.dim("M") >= 4) {
            p.putAll(Map.of("kernel", "vector", "microRows", 4, "microVecs", 2, "packA", 1, "packB", 1));
        } else {
            p.putAll(Map.of("kernel", "vector", "microRows", 1, "microVecs", 2)); // the row streamer of batch-1 layers
        }
        SearchSpace space = SPEC.space(key, CORES, VectorWidth.bits());
        assertTrue(space.isValid(space.index(p)), p + " is a valid point of " + key.id());
        return p;
    }

    private static Map<String, Object> entry(String deviceClass, int m, int n, int k) {
        KernelKey key = new KernelKey("gemm", Map.of("M", m, "N", n, "K", k), "fp32");
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("deviceClass", deviceClass);
        e.put("objective", "latency");
        e.put("kernel", Map.of("op", "gemm", "shape", key.shape(), "dtype", "fp32"));
        e.put("params", tunedPoint(key));
        e.put("defaultParams", SPEC.defaultConfig(key, CORES));
        e.put("stats", Map.of("medianNs", 1.0e5, "minNs", 0.9e5, "cv", 0.01, "samples", 5));
        e.put("gflops", SPEC.flops(key) / 1.0e5);
        e.put("speedupOverDefault", 5.0);
        e.put("agentId", "local-agent");
        e.put("measuredAt", 1764770000000L);
        e.put("sweepId", "s-test");
        e.put("defaultMedianNs", 5.0e5);
        e.put("defaultMeasuredAt", 1764769990000L);
        return e;
    }

    @Test void looksUpRunsAndVerifiesExactNearestAndDefault(@TempDir Path dir) throws Exception {
        DeviceProfile me = ThisDevice.profile();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", "tunefarm.table/2");
        doc.put("farmId", "test-farm");
        doc.put("generatedAt", 1764770000000L);
        doc.put("sweeps", List.of("s-test"));
        doc.put("classes", Map.of(me.deviceClass(), Map.of("cpuModel", me.cpuModel(), "physicalCores", me.physicalCores(),
                "jvmMajor", me.jvmMajor(), "vectorBits", me.vectorBits(), "isa", Device.isa(me.arch(), me.vectorBits()))));
        doc.put("entries", List.of(entry(me.deviceClass(), 64, 64, 64), entry(me.deviceClass(), 1, 256, 256)));
        Path table = dir.resolve("table.json");
        Files.writeString(table, Protocol.JSON.writeValueAsString(doc));

        // 96^3 is 3 ln 1.5 = 1.22 from 64^3; 16^3 is 3 ln 4 from it, beyond ln 4.
        Run r = example("--table", table.toString(), "--shape", "64x64x64", "--shape", "96x96x96", "--shape", "16x16x16",
                "--samples", "3", "--sample-ms", "1", "--warmup-ms", "20");
        System.out.print(r.out()); // kept in the surefire report, for whoever reads it
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("fp32 GEMM answers from " + me.deviceClass() + " (device rule CLASS)"), r.out());
        assertTrue(r.out().contains("(as a C program asks): " + me.deviceClass() + " (device rule CPU_MODEL)"), r.out());
        List<String> rules = r.out().lines().filter(l -> l.matches("\\d+x\\d+x\\d+ .*")).map(l -> l.split("\\s+")[0] + " " + l.split("\\s+")[1]).toList();
        assertEquals(List.of("64x64x64 EXACT", "96x96x96 NEAREST", "16x16x16 DEFAULT"), rules, r.out());
        assertEquals(3, r.out().lines().filter(l -> l.contains(" verified (max error")).count(), r.out());
        String tunedKernel = "kernel=" + (VectorWidth.available() ? "vector" : "scalar");
        List<String> params = r.out().lines().filter(l -> l.startsWith("  params")).toList();
        assertTrue(params.get(0).contains(tunedKernel) && params.get(1).contains(tunedKernel) && params.get(2).contains("kernel=scalar loopOrder=ikj"), params.toString());
    }

    @Test void aMissingOrOldTableIsSaidPlainly(@TempDir Path dir) throws Exception {
        Run missing = example("--table", dir.resolve("absent.json").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("./tunefarm demo"), missing.err());
        Path old = dir.resolve("old.json");
        Files.writeString(old, "{\"schema\": \"tunefarm.table/1\", \"entries\": []}");
        Run v1 = example("--table", old.toString());
        assertEquals(2, v1.code());
        assertTrue(v1.err().contains("schema: expected \"tunefarm.table/2\""), v1.err());
        assertEquals(2, example("--shape", "1x2").code());
    }

    /** The library's ISA names are the ones device classes carry, for every architecture and width. */
    @Test void isaNamesAgreeWithDeviceClasses() {
        for (String arch : List.of("amd64", "x86_64", "x86", "aarch64", "arm", "riscv64", "ppc64le", "s390x")) {
            for (int bits : new int[] {0, 128, 256, 512}) {
                DeviceProfile p = new DeviceProfile("cpu", "Zen 4", 2, 2, 32, 1024, 0, 16, "Linux", arch, "vendor", 21, bits, List.of(), Map.of());
                assertTrue(p.deviceClass().startsWith("zen4-2c-" + Device.isa(arch, bits) + "-jdk21-"), arch + "/" + bits + ": " + p.deviceClass());
            }
        }
        DeviceProfile me = ThisDevice.profile();
        assertTrue(me.deviceClass().contains("-" + Device.isa(me.arch(), me.vectorBits()) + "-jdk"), me.deviceClass());
    }
}
