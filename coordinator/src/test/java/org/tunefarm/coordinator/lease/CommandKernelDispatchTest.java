package org.tunefarm.coordinator.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.coordinator.sweep.SpecException;
import org.tunefarm.coordinator.sweep.SweepRun;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.kernel.CommandKernelDeclaration;
import org.tunefarm.kernel.KernelCatalog;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.ProtocolException;
import org.tunefarm.protocol.Register;
import org.tunefarm.protocol.Work;

/** Command kernels through the dispatcher: who may declare what, and who gets their batches. */
class CommandKernelDispatchTest {
    static final String SPEC = """
            kernel: c_sgemm
            shapes: [{M: 128, N: 128, K: 128}]
            strategy: {name: random, budget: 4, seed: 1}
            batchSize: 3
            """;

    long now = 1_700_000_000_000L;
    final Dispatcher dispatcher = new Dispatcher(() -> now, 1_000, new Dispatcher.Listener() {});

    static CommandKernelDeclaration sgemm(List<Object> tm) {
        Map<String, List<Object>> p = new LinkedHashMap<>();
        p.put("TM", tm);
        p.put("UNROLL", List.of(1, 2, 4));
        return new CommandKernelDeclaration("c_sgemm", List.of("M", "N", "K"), p, List.of("TM * UNROLL <= 128"),
                Map.of("TM", 16, "UNROLL", 1), "2*M*N*K", null);
    }

    static final CommandKernelDeclaration SGEMM = sgemm(List.of(16, 32, 64));

    void register(String id, CommandKernelDeclaration... ds) {
        dispatcher.register(new Register(id, DispatcherTest.PROFILE, List.of("gemm", "sleep"), List.of(ds)));
    }

    @Test void aSweepNamesACommandKernelOnlyWhileAnAgentAdvertisesIt() {
        SpecException e = assertThrows(SpecException.class, () -> SweepSpecReader.read(SPEC));
        assertEquals("kernel", e.field());
        assertTrue(e.getMessage().contains("c_sgemm"), e.getMessage());
        SweepSpec s = SweepSpecReader.read(SPEC, KernelCatalog.of(List.of(SGEMM)));
        assertEquals(SGEMM, s.command());
        assertEquals("shapes[0].K", assertThrows(SpecException.class,
                () -> SweepSpecReader.read(SPEC.replace("K: 128", "Q: 128"), KernelCatalog.of(List.of(SGEMM)))).field());
        assertEquals("space.TM", assertThrows(SpecException.class,
                () -> SweepSpecReader.read(SPEC + "space: {TM: [48]}\n", KernelCatalog.of(List.of(SGEMM)))).field());
    }

    @Test void batchesGoOnlyToAgentsThatAdvertiseTheKernel() {
        register("plain");
        register("builder", SGEMM);
        assertTrue(dispatcher.agents().stream().filter(a -> a.agentId().equals("builder")).findFirst().orElseThrow().families().contains("c_sgemm"),
                "command kernels are families too, even when an agent forgot to list them");
        dispatcher.add(new SweepRun("sw", SweepSpecReader.read(SPEC, KernelCatalog.of(List.of(SGEMM))), now));
        assertNull(dispatcher.pull("plain").lease(), "an agent without the kernel gets nothing");
        Work w = dispatcher.pull("builder");
        assertNotNull(w.lease());
        Lease l = w.lease();
        assertEquals("c_sgemm", l.key().op());
        assertEquals(Map.of("TM", 16, "UNROLL", 1), l.candidates().get(0).params(), "the declared default is the baseline");
        assertEquals(3, l.candidates().size());
    }

    @Test void aSecondDifferentDeclarationUnderTheSameNameIsRefused() {
        register("first", SGEMM);
        register("same", SGEMM);
        ProtocolException e = assertThrows(ProtocolException.class, () -> register("second", sgemm(List.of(16, 32))));
        assertTrue(e.getMessage().startsWith("commandKernels[0]: agent first already advertises command kernel 'c_sgemm'"), e.getMessage());
        assertEquals(2, dispatcher.agents().size(), "the refused agent is not registered");
        register("first", SGEMM); // re-registering as itself is fine
    }

    @Test void anAgentWithAChangedDeclarationGetsNoBatchesOfTheOldOne() {
        register("board", SGEMM);
        dispatcher.add(new SweepRun("sw", SweepSpecReader.read(SPEC, KernelCatalog.of(List.of(SGEMM))), now));
        register("board", sgemm(List.of(16, 32)));
        assertNull(dispatcher.pull("board").lease(), "its space changed: the sweep's candidates may not be in it");
    }

    @Test void invalidOrShadowingDeclarationsAreRefusedNamingTheField() {
        var bad = new CommandKernelDeclaration("c_sgemm", List.of("M"), Map.of("TM", List.of(16)), List.of(), Map.of("TM", 16), "2*M*Z", null);
        assertTrue(assertThrows(ProtocolException.class, () -> register("a", bad)).getMessage().startsWith("commandKernels[0].flops:"));
        var gemm = new CommandKernelDeclaration("gemm", List.of("M"), Map.of("TM", List.of(16)), List.of(), Map.of("TM", 16), "M", null);
        assertTrue(assertThrows(ProtocolException.class, () -> register("a", gemm)).getMessage().startsWith("commandKernels[0].name: 'gemm' is a built-in"));
        assertTrue(assertThrows(ProtocolException.class, () -> register("a", SGEMM, SGEMM)).getMessage().contains("declared twice"));
    }
}
