package org.tunefarm.agent.kernels.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.agent.AgentConfig;

class CommandKernelReaderTest {
    @TempDir Path dir;

    static AgentConfig parse(String... args) {
        return AgentConfig.parse(args);
    }

    @Test void theExampleAgentConfigDeclaresTheCSgemm() {
        var config = parse("--config", "../configs/agent.yaml");
        assertEquals(List.of("127.0.0.1:7000"), config.coordinators());
        CommandKernel k = config.commandKernels().get(0);
        assertEquals("c_sgemm", k.name());
        assertEquals(List.of("M", "N", "K"), k.spec().dimensions());
        assertTrue(Files.exists(k.workdir().resolve("sgemm.c")), "workdir is relative to the config file: " + k.workdir());
        assertTrue(k.build().names().containsAll(List.of("TM", "TN", "TK", "UNROLL")));
    }

    @Test void flagsWinOverTheFile() {
        var config = parse("--coordinator", "10.0.0.1:7000", "--config", "../configs/agent.yaml", "--token", "t2");
        assertEquals(List.of("10.0.0.1:7000"), config.coordinators());
        assertEquals("t2", config.token());
    }

    @Test void anUnknownPlaceholderInTheConfigIsRefusedAtLoadNamingTheField() throws Exception {
        Path f = dir.resolve("agent.yaml");
        Files.writeString(f, """
                coordinators: [127.0.0.1:7000]
                token: t
                commandKernels:
                  - name: k
                    dimensions: [N]
                    parameters: {X: [1, 2]}
                    default: {X: 1}
                    run: [./k, "{X}", "{N}", "{Y}"]
                """);
        var e = assertThrows(IllegalArgumentException.class, () -> parse("--config", f.toString()));
        assertTrue(e.getMessage().contains("commandKernels[0].run[3]: unknown placeholder {Y}"), e.getMessage());
    }

    @Test void aBadDeclarationIsRefusedAtLoadNamingTheField() throws Exception {
        Path f = dir.resolve("agent.yaml");
        Files.writeString(f, """
                token: t
                commandKernels:
                  - name: gemm
                    dimensions: [N]
                    parameters: {X: [1, 2]}
                    default: {X: 1}
                    run: [./k]
                """);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--config", f.toString(), "--coordinator", "h:1"))
                .getMessage().contains("commandKernels[0].name: 'gemm' is a built-in"));
        Files.writeString(f, """
                commandKernels:
                  - name: k
                    dimensions: [N]
                    parameters: {X: [1, 2]}
                    default: {X: 3}
                    run: [./k]
                """);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--config", f.toString(), "--coordinator", "h:1", "--token", "t"))
                .getMessage().contains("commandKernels[0].default: "));
        Files.writeString(f, """
                commandKernels:
                  - name: k
                    dimensions: [N]
                    parameters: {X: [1, 2]}
                    default: {X: 1}
                    run: [./k]
                    output: regex
                    regex: "no group"
                """);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--config", f.toString(), "--coordinator", "h:1", "--token", "t"))
                .getMessage().contains("commandKernels[0].regex: "));
    }
}
