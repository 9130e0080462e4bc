package org.tunefarm.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.JsonNode;
import org.tunefarm.measure.Stats;
import org.tunefarm.protocol.Protocol;

/**
 * A small C program shipped as a resource, compiled with gcc into a temporary folder and run
 * with argv (never through a shell). {@link #compile} says why it cannot be built, instead of
 * throwing, so a bench can report and skip what this machine lacks.
 */
final class NativeProgram {

    /** Where Debian's libopenblas-dev puts the CBLAS header (multiarch include folder). */
    static final List<Path> CBLAS_HEADERS = List.of(Path.of("/usr/include/x86_64-linux-gnu/cblas.h"),
            Path.of("/usr/include/aarch64-linux-gnu/cblas.h"), Path.of("/usr/include/openblas/cblas.h"), Path.of("/usr/include/cblas.h"));

    private final Path binary;

    private NativeProgram(Path binary) {
        this.binary = binary;
    }

    /** The outcome of building: the program, or why there is none. */
    record Built(NativeProgram program, String missing) {}

    /** The header of the harness's sampling rule, copied beside each program's source. */
    static final String SAMPLING = "sampling.h";

    /**
     * Compiles {@code native/<name>.c} with {@code gcc -O2 <flags>}. {@code libs} are linker
     * flags placed after the source, as the linker wants.
     */
    static Built compile(String name, List<String> flags, List<String> libs) {
        Path dir;
        try {
            dir = Files.createTempDirectory("tunefarm-bench-");
            dir.toFile().deleteOnExit();
            Path source = dir.resolve(name + ".c");
            try (InputStream in = NativeProgram.class.getResourceAsStream("/native/" + name + ".c")) {
                if (in == null) return new Built(null, "resource native/" + name + ".c is missing from the bench jar");
                Files.write(source, in.readAllBytes());
            }
            // The sampling rule every program includes.
            try (InputStream in = NativeProgram.class.getResourceAsStream("/native/" + SAMPLING)) {
                if (in == null) return new Built(null, "resource native/" + SAMPLING + " is missing from the bench jar");
                Path header = dir.resolve(SAMPLING);
                Files.write(header, in.readAllBytes());
                header.toFile().deleteOnExit();
            }
            Path binary = dir.resolve(name);
            List<String> argv = new ArrayList<>(List.of("gcc", "-O2", "-march=native"));
            argv.addAll(flags);
            argv.addAll(List.of("-o", binary.toString(), source.toString()));
            argv.addAll(libs);
            String[] result = exec(argv, 120, Map.of());
            if (result == null) return new Built(null, "gcc is not installed");
            if (!result[0].equals("0")) return new Built(null, "gcc failed: " + tail(result[1]));
            binary.toFile().deleteOnExit();
            source.toFile().deleteOnExit();
            return new Built(new NativeProgram(binary), null);
        } catch (IOException e) {
            return new Built(null, "cannot build " + name + ": " + e.getMessage());
        }
    }

    /** Runs the program; returns its stdout, or throws with its exit code and output. */
    String run(List<String> args, long timeoutSeconds) throws IOException {
        return run(args, timeoutSeconds, Map.of());
    }

    /** As {@link #run(List, long)}, with these variables added to the program's environment. */
    String run(List<String> args, long timeoutSeconds, Map<String, String> env) throws IOException {
        List<String> argv = new ArrayList<>();
        argv.add(binary.toString());
        argv.addAll(args);
        String[] result = exec(argv, timeoutSeconds, env);
        if (result == null || !result[0].equals("0")) {
            throw new IOException(binary.getFileName() + " " + args + " failed: " + (result == null ? "not runnable" : "exit " + result[0] + ": " + tail(result[1])));
        }
        return result[1].strip();
    }

    /**
     * Runs a program that samples by the harness's rule ({@code sampling.h}) and returns its samples
     * through the harness's statistic ({@link Stats#withoutInterference}; samples it set aside as
     * preempted count as outliers). A program that verified its answer and found it wrong throws.
     */
    Stats sample(List<String> args, String what) throws IOException {
        return sample(args, what, Map.of());
    }

    /** As {@link #sample(List, String)}, with these variables added to the program's environment. */
    Stats sample(List<String> args, String what, Map<String, String> env) throws IOException {
        String out = run(args, 600, env);
        JsonNode j = Protocol.JSON.readTree(out.lines().reduce((a, b) -> b).orElse("{}"));
        if (j.has("correct") && !j.path("correct").asBoolean(false)) throw new IOException(what + " gave a wrong answer: " + out);
        JsonNode s = j.path("samples_ns");
        if (!s.isArray() || s.isEmpty()) throw new IOException(what + ": no samples_ns in: " + out);
        double[] ns = new double[s.size()];
        for (int i = 0; i < ns.length; i++) ns[i] = s.get(i).asDouble();
        return Stats.withoutInterference(ns, j.path("calls_per_sample").asInt(1)).settingAside(j.path("preempted").asInt(0));
    }

    /** {exit code, stdout and stderr}, or null when the executable does not exist. */
    private static String[] exec(List<String> argv, long timeoutSeconds, Map<String, String> env) throws IOException {
        Process p;
        try {
            ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
            builder.environment().putAll(env);
            p = builder.start();
        } catch (IOException notFound) {
            return null;
        }
        try {
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new String[] {"timeout", new String(out, StandardCharsets.UTF_8)};
            }
            return new String[] {String.valueOf(p.exitValue()), new String(out, StandardCharsets.UTF_8)};
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static String tail(String s) {
        String t = s.strip();
        return t.length() > 400 ? "…" + t.substring(t.length() - 400) : t;
    }
}
