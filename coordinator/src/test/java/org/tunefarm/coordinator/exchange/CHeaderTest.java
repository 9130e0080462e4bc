package org.tunefarm.coordinator.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.protocol.Protocol;

/**
 * The C header of a hand-written /2 table, compiled with {@code cc -std=c99 -Wall -Werror} and
 * looked up in by a real C program: exact, nearest and default matches, the threshold macro, ties,
 * device matching by CPU model, and what stays out of it.
 */
class CHeaderTest {
    static final String EPYC = "zen4-2c-avx512-jdk25-aaaa0001";
    static final String EPYC_SSE = "zen4-2c-sse128-jdk25-aaaa0002";
    static final String ODD = "odd-1c-x86scalar-jdk17-bbbb0003";
    /** Quotes, a backslash, a trigraph, a comment end and a non-ASCII letter: all must survive C. */
    static final String ODD_MODEL = "Odd \"CPU\" ??= back\\slash */ é";
    static final String M128 = "\"M\": 128, \"N\": 128, \"K\": 128";
    static final String M512 = "\"M\": 512, \"N\": 512, \"K\": 512";
    static final String DEFAULTS = "\"TM\": 16, \"TN\": 16, \"TK\": 16, \"UNROLL\": 1";
    @TempDir static Path dir;
    static String header;

    @BeforeAll static void write() throws Exception {
        Assumptions.assumeTrue(CLookupProgram.ccPresent(), "no cc on the PATH");
        String doc = new Tables()
                .profile(EPYC, "AMD EPYC 9B14").profile(EPYC_SSE, "AMD EPYC 9B14").profile(ODD, ODD_MODEL)
                .entry(EPYC, "c_sgemm", M128, "fp32", "\"TM\": 32, \"TN\": 16, \"TK\": 64, \"UNROLL\": 4", 2.0e5, DEFAULTS, 9.0e5)
                .entry(EPYC, "c_sgemm", M512, "fp32", "\"TM\": 64, \"TN\": 64, \"TK\": 32, \"UNROLL\": 8", 1.1e7, DEFAULTS, 5.0e7)
                // Same CPU model, another class (forced 128-bit vectors): an exact tie goes to the smaller class name.
                .entry(EPYC_SSE, "c_sgemm", M128, "fp32", "\"TM\": 16, \"TN\": 32, \"TK\": 16, \"UNROLL\": 2", 1.0e5, null, null)
                .entry(ODD, "c_sgemm", M128, "fp32", "\"TM\": 16, \"TN\": 16, \"TK\": 16, \"UNROLL\": 2", 3.0e5, null, null)
                // What stays out: a built-in Java kernel, a non-integer parameter, another objective.
                .entry(EPYC, "gemm", M512, "fp32", "\"kernel\": \"vector\", \"tileM\": 64", 1.0e6, null, null)
                .entry(EPYC, "c_blend", "\"n\": 1024", "fp32", "\"alpha\": 0.5", 1.0e4, null, null)
                .entry(EPYC, "energy", "c_sgemm", M128, "fp32", "\"TM\": 64, \"TN\": 64, \"TK\": 64, \"UNROLL\": 1", 4.0e5, null, null)
                .v2();
        header = CHeader.write(TableSnapshot.of(Protocol.JSON.readTree(doc)));
    }

    static List<String> lookup(Path binary, String model, String... shapes) throws Exception {
        String[] args = new String[shapes.length + 3];
        args[0] = model;
        args[1] = "c_sgemm";
        args[2] = "fp32";
        System.arraycopy(shapes, 0, args, 3, shapes.length);
        List<String> lines = CLookupProgram.run(binary, args);
        lines.forEach(l -> System.out.println("lookup_test: " + l));
        return lines;
    }

    @Test void exactThenNearestThenTheFamilyDefaultThenNothing() throws Exception {
        Path binary = CLookupProgram.build(dir.resolve("default"), header);
        List<String> lines = lookup(binary, "  amd EPYC 9b14 ",
                "M=128,N=128,K=128", "M=128,N=128,K=256", "M=400,N=512,K=512", "M=300,N=300,K=300", "X=128", "M=128,N=128");
        assertEquals(List.of(
                "M=128,N=128,K=128: exact c_sgemm[K=128,M=128,N=128]:fp32 TK=64 TM=32 TN=16 UNROLL=4",
                "M=128,N=128,K=256: nearest c_sgemm[K=128,M=128,N=128]:fp32 TK=64 TM=32 TN=16 UNROLL=4",
                "M=400,N=512,K=512: nearest c_sgemm[K=512,M=512,N=512]:fp32 TK=32 TM=64 TN=64 UNROLL=8",
                // 3 x ln(300/128) = 2.56 and 3 x ln(512/300) = 1.60, both beyond ln 4 = 1.39
                "M=300,N=300,K=300: default c_sgemm[K=128,M=128,N=128]:fp32 TK=16 TM=16 TN=16 UNROLL=1",
                "X=128: default c_sgemm[K=128,M=128,N=128]:fp32 TK=16 TM=16 TN=16 UNROLL=1",
                "M=128,N=128: default c_sgemm[K=128,M=128,N=128]:fp32 TK=16 TM=16 TN=16 UNROLL=1"), lines);
        assertEquals(List.of("M=128,N=128,K=128: none"), lookup(binary, "Intel Xeon 8480", "M=128,N=128,K=128"), "an unknown CPU model");
        assertEquals(List.of("M=128,N=128,K=128: exact c_sgemm[K=128,M=128,N=128]:fp32 TK=16 TM=16 TN=32 UNROLL=2"),
                lookup(binary, EPYC_SSE, "M=128,N=128,K=128"), "the device class string matches its class alone");
    }

    @Test void aClassWithoutDefaultsHasNoAnswerBeyondTheThresholdAndOddStringsSurvive() throws Exception {
        Path binary = CLookupProgram.build(dir.resolve("odd"), header);
        assertEquals(List.of("M=128,N=128,K=128: exact c_sgemm[K=128,M=128,N=128]:fp32 TK=16 TM=16 TN=16 UNROLL=2",
                "M=4096,N=4096,K=4096: none"), lookup(binary, ODD_MODEL, "M=128,N=128,K=128", "M=4096,N=4096,K=4096"));
    }

    @Test void theThresholdIsAMacroTheIncluderMayDefine() throws Exception {
        Path binary = CLookupProgram.build(dir.resolve("tight"), header, "-DTUNEFARM_MAX_DISTANCE=0.1");
        assertEquals(List.of("M=128,N=128,K=256: default c_sgemm[K=128,M=128,N=128]:fp32 TK=16 TM=16 TN=16 UNROLL=1"),
                lookup(binary, "AMD EPYC 9B14", "M=128,N=128,K=256"));
    }

    @Test void aFileThatOnlyIncludesItCompilesWithoutWarnings() throws Exception {
        CLookupProgram.build(dir.resolve("unused"), header);
        CLookupProgram.compile(dir.resolve("unused"), "#include \"tunefarm_table.h\"\n#include \"tunefarm_table.h\"\nint answer(void) { return TUNEFARM_ENTRY_COUNT; }\n");
    }

    @Test void theCommentSaysWhatWentInAndWhatStayedOut() {
        assertTrue(header.contains(" * schema tunefarm.table/2, farm 8c0e5c1e-2f8a-4a52-9b7e-3f1f4b8f0a11, generated at 2025-12-03T13:53:20Z (1764770000000)"), header);
        assertTrue(header.contains("integer parameters, objective latency: 4 of 7 entries; left out: 1 with built-in Java kernels, "
                + "1 with objective other than latency, 1 with parameters that are not all integers."), header);
        assertTrue(header.contains("#define TUNEFARM_SWEEPS \"s-1\""), header);
        assertTrue(header.contains("#define TUNEFARM_ENTRY_COUNT 4"), header);
        assertTrue(!header.contains("\"gemm\"") && !header.contains("c_blend"), "built-in and float-parameter entries stay out");
        String includes = header.lines().filter(l -> l.startsWith("#include")).reduce("", (a, b) -> a + b + "\n");
        assertEquals("#include <ctype.h>\n#include <math.h>\n#include <string.h>\n", includes);
    }

    @Test void aTableWithNothingForCIsRefusedSayingWhy() throws Exception {
        String doc = new Tables().entry(EPYC, "gemm", M512, "fp32", "\"kernel\": \"vector\"", 1e6, null, null).v1();
        CHeader.NothingQualifies e = assertThrows(CHeader.NothingQualifies.class, () -> CHeader.write(TableSnapshot.of(Protocol.JSON.readTree(doc))));
        assertTrue(e.getMessage().contains("no entry of the table qualifies") && e.getMessage().contains("1 with built-in Java kernels"), e.getMessage());
    }
}
