package org.tunefarm.agent.kernels.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArgvTemplateTest {
    static final List<String> KNOWN = List.of("M", "N", "TM", "seed");

    @Test void placeholdersAreSubstitutedTokenByToken() {
        ArgvTemplate t = ArgvTemplate.parse(List.of("build/k_{TM}", "-DTM={TM}", "{M}x{N}", "{{literal}}", "--seed={seed}"), KNOWN, "run");
        assertEquals(Set.of("TM", "M", "N", "seed"), t.names());
        assertEquals(List.of("build/k_32", "-DTM=32", "128x64", "{literal}", "--seed=7"),
                t.substitute(Map.of("TM", "32", "M", "128", "N", "64", "seed", "7")));
    }

    @Test void aValueWithSpacesOrShellSyntaxStaysOneArgument() {
        ArgvTemplate t = ArgvTemplate.parse(List.of("prog", "{TM}"), KNOWN, "run");
        assertEquals(List.of("prog", "1; rm -rf / $(x) `y`"), t.substitute(Map.of("TM", "1; rm -rf / $(x) `y`")));
        assertEquals(List.of("prog", "$1\\0"), t.substitute(Map.of("TM", "$1\\0")), "replacement syntax is not interpreted");
    }

    @Test void anUnknownPlaceholderIsRefusedNamingTheFieldAndToken() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> ArgvTemplate.parse(List.of("gcc", "-o", "k_{TX}"), KNOWN, "commandKernels[0].build"));
        assertTrue(e.getMessage().startsWith("commandKernels[0].build[2]: unknown placeholder {TX}"), e.getMessage());
    }

    @Test void strayBracesAndEmptyCommandsAreRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ArgvTemplate.parse(List.of("p", "{TM"), KNOWN, "run"))
                .getMessage().startsWith("run[1]: stray '{'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ArgvTemplate.parse(List.of("p", "{1x}"), KNOWN, "run"))
                .getMessage().startsWith("run[1]:"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ArgvTemplate.parse(List.of(), KNOWN, "run"))
                .getMessage().startsWith("run:"));
    }
}
