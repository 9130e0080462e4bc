package org.tunefarm.coordinator.boards;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A board's JRE installed on this machine. Where it is missing or does not run, CI (env
 * {@code CI=true}) fails with what to install; elsewhere the test is skipped with the same words.
 */
final class BoardJre {

    private BoardJre() {}

    /**
     * The {@code java} at {@code path} (or the system property {@code property}), checked by
     * running {@code java -version} with {@code env}.
     *
     * @param setup what to install or register when it is missing
     */
    static String require(String property, String path, Map<String, String> env, String setup) {
        String java = System.getProperty(property, path);
        String problem = problem(java, env);
        if (problem != null) {
            String message = java + " " + problem + ": " + setup;
            if ("true".equalsIgnoreCase(System.getenv("CI"))) fail(message);
            Assumptions.abort(message);
        }
        return java;
    }

    /** Why the JRE cannot run here, or null. */
    private static String problem(String java, Map<String, String> env) {
        if (!Files.isExecutable(Path.of(java))) return "is not installed";
        List<String> cmd = new ArrayList<>(List.of(java, "-version"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        try {
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "did not answer -version within 120 s";
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.exitValue() == 0 ? null : "does not run (exit " + p.exitValue() + ": " + out + ")";
        } catch (IOException e) {
            return "does not run (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "was interrupted";
        }
    }
}
