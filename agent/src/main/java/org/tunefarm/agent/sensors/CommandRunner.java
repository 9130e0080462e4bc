package org.tunefarm.agent.sensors;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short command for a sensor reading. A seam so tests need not be a Raspberry Pi. */
@FunctionalInterface
interface CommandRunner {

    /** What a finished command printed (stdout and stderr together) and its exit status. */
    record Output(int exitCode, String text) {}

    /**
     * Runs {@code argv}, waiting at most {@code timeout}.
     *
     * @return its output, or null when it did not finish in time (it is killed)
     * @throws IOException when it cannot be started at all (no such command)
     */
    Output run(List<String> argv, Duration timeout) throws IOException;

    /** A real process, killed at the timeout so a stuck firmware call never holds up a measurement. */
    CommandRunner PROCESS = (argv, timeout) -> {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        try {
            if (!p.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                p.destroyForcibly();
                return null;
            }
            // A finished command's output is in the pipe already; it is a line or two.
            return new Output(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return null;
        } finally {
            p.getInputStream().close();
        }
    };
}
