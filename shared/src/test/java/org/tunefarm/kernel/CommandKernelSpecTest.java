package org.tunefarm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.protocol.Protocol;

public class CommandKernelSpecTest {

    public static final CommandKernelDeclaration SGEMM = new CommandKernelDeclaration("c_sgemm", List.of("M", "N", "K"),
            params(), List.of("TM * TK <= 4096"), Map.of("TM", 16, "TN", 16, "TK", 16, "UNROLL", 1), "2*M*N*K", null);

    static Map<String, List<Object>> params() {
        Map<String, List<Object>> p = new LinkedHashMap<>();
        p.put("TM", List.of(16, 32, 64));
        p.put("TN", List.of(16, 32, 64));
        p.put("TK", List.of(16, 32, 64, 128));
        p.put("UNROLL", List.of(1, 2, 4));
        return p;
    }

    static final KernelKey KEY = new KernelKey("c_sgemm", Map.of("M", 128, "N", 64, "K", 32), "fp32");

    @Test void aDeclarationBecomesASpaceWithItsDefaultAndFlops() {
        CommandKernelSpec s = new CommandKernelSpec(SGEMM);
        assertEquals(3 * 3 * 4 * 3, s.space(KEY, 4).size());
        assertEquals(2.0 * 128 * 64 * 32, s.flops(KEY));
        assertEquals(List.of("TM", "TN", "TK", "UNROLL"), List.copyOf(s.defaultConfig(KEY, 1).keySet()));
        assertEquals(List.of("fp32"), s.dtypes());
    }

    @Test void theAgentRecheckNamesWhatIsWrongWithAConfiguration() {
        CommandKernelSpec s = new CommandKernelSpec(SGEMM);
        assertTrue(s.problem(Map.of("TM", 32, "TN", 16, "TK", 64, "UNROLL", 2)).isEmpty());
        assertTrue(s.problem(Map.of("TM", 64, "TN", 16, "TK", 128, "UNROLL", 2)).orElseThrow().contains("TM * TK <= 4096"));
        assertTrue(s.problem(Map.of("TM", 48, "TN", 16, "TK", 64, "UNROLL", 2)).orElseThrow().contains("TM"));
        assertTrue(s.problem(Map.of("TM", 32, "TN", 16, "TK", 64)).orElseThrow().contains("UNROLL"));
        assertTrue(s.problem(Map.of("TM", 32, "TN", 16, "TK", 64, "UNROLL", 2, "X", "; rm -rf /")).orElseThrow().contains("X"));
    }

    @Test void aBadDeclarationIsRefusedNamingTheField() {
        assertField("flops", new CommandKernelDeclaration("k", List.of("M"), params(), List.of(), SGEMM.defaultConfig(), "2*M*Q", null));
        assertField("constraints", new CommandKernelDeclaration("k", List.of("M"), params(), List.of("TQ > 1"), SGEMM.defaultConfig(), "M", null));
        assertField("default", new CommandKernelDeclaration("k", List.of("M"), params(), List.of(), Map.of("TM", 16, "TN", 16, "TK", 16, "UNROLL", 3), "M", null));
        assertField("default.UNROLL", new CommandKernelDeclaration("k", List.of("M"), params(), List.of(), Map.of("TM", 16, "TN", 16, "TK", 16), "M", null));
        assertField("name", new CommandKernelDeclaration("rm -rf", List.of("M"), params(), List.of(), SGEMM.defaultConfig(), "M", null));
        assertField("dimensions", new CommandKernelDeclaration("k", List.of(), params(), List.of(), SGEMM.defaultConfig(), "M", null));
        assertField("parameters.TM", new CommandKernelDeclaration("k", List.of("TM"), params(), List.of(), SGEMM.defaultConfig(), "TM", null));
        assertField("parameters.seed", new CommandKernelDeclaration("k", List.of("M"), Map.of("seed", List.of(1)), List.of(), Map.of("seed", 1), "M", null));
    }

    @Test void aDeclarationSurvivesJsonWithItsOrderAndIntegers() throws Exception {
        String json = Protocol.JSON.writeValueAsString(SGEMM);
        assertTrue(json.contains("\"default\":"), json);
        CommandKernelDeclaration back = Protocol.JSON.readValue(json, CommandKernelDeclaration.class);
        assertEquals(SGEMM, back);
        assertEquals(List.copyOf(SGEMM.parameters().keySet()), List.copyOf(back.parameters().keySet()));
    }

    @Test void theCatalogPutsBuiltInsFirst() {
        var shadow = new CommandKernelDeclaration("gemm", List.of("M"), params(), List.of(), SGEMM.defaultConfig(), "M", null);
        KernelCatalog c = KernelCatalog.of(List.of(shadow, SGEMM));
        assertTrue(c.get("gemm") instanceof GemmSpec);
        assertEquals("c_sgemm", c.get("c_sgemm").op());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KernelCatalog.builtIn().get("c_sgemm")).getMessage().contains("c_sgemm"));
    }

    private static void assertField(String field, CommandKernelDeclaration d) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new CommandKernelSpec(d));
        assertTrue(e.getMessage().startsWith(field + ":"), e.getMessage());
    }
}
