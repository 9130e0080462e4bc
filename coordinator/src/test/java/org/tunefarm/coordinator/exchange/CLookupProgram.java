package org.tunefarm.coordinator.exchange;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small C program that looks shapes up in a generated header ({@code c-header/lookup_test.c}),
 * built with the machine's {@code cc -std=c99 -Wall -Werror ... -lm} and run for real.
 */
public final class CLookupProgram {
    private CLookupProgram() {}

    /** Whether a C compiler is on the PATH. */
    public static boolean ccPresent() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, "cc"))) return true;
        }
        return false;
    }

    /**
     * Writes the header as {@code tunefarm_table.h} and the lookup program into the folder and
     * compiles them; fails with the compiler's output on any warning.
     *
     * @param flags more compiler flags, e.g. {@code -DTUNEFARM_MAX_DISTANCE=0.1}
     */
    public static Path build(Path dir, String header, String... flags) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("tunefarm_table.h"), header);
        try (InputStream in = CLookupProgram.class.getResourceAsStream("/c-header/lookup_test.c")) {
            Files.write(dir.resolve("lookup_test.c"), in.readAllBytes());
        }
        List<String> cmd = new ArrayList<>(List.of("cc", "-std=c99", "-Wall", "-Werror"));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of("-o", "lookup_test", "lookup_test.c", "-lm"));
        exec(dir, cmd);
        return dir.resolve("lookup_test");
    }

    /** Compiles a source file that includes the header (already written by {@link #build}); fails on any warning. */
    public static void compile(Path dir, String source) throws IOException, InterruptedException {
        Files.writeString(dir.resolve("only_includes.c"), source);
        exec(dir, List.of("cc", "-std=c99", "-Wall", "-Werror", "-c", "-o", "only_includes.o", "only_includes.c"));
    }

    /** Runs the built program; returns the lines it printed. */
    public static List<String> run(Path binary, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString()));
        cmd.addAll(List.of(args));
        return exec(binary.getParent(), cmd).lines().toList();
    }

    private static String exec(Path dir, List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + ": did not finish within 60 s");
        }
        if (p.exitValue() != 0) throw new IOException(String.join(" ", cmd) + " exited " + p.exitValue() + ":\n" + out);
        return out;
    }
}
