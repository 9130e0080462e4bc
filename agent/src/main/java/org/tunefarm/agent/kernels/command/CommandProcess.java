package org.tunefarm.agent.kernels.command;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one program of a command kernel (a build or a run) to completion or to its timeout. On
 * Linux it starts in a session and process group of its own ({@code setsid}), so a timeout kills
 * everything it started, however deep; elsewhere its descendants are found and killed one by one.
 * Never through a shell: the argv goes to exec as it is.
 */
final class CommandProcess {
    static final int STDOUT_KEEP = 256 * 1024;
    static final int STDERR_KEEP = 8 * 1024;
    /** Characters of stderr a failure's detail carries. */
    static final int TAIL_CHARS = 1500;
    /** After the program exits or is killed, how long its pipes get to close. */
    private static final long DRAIN_MS = 2000;

    private static final Path SETSID = firstExecutable("/usr/bin/setsid", "/bin/setsid");
    private static final Path KILL = firstExecutable("/bin/kill", "/usr/bin/kill");

    private CommandProcess() {}

    /**
     * How a program ended.
     *
     * @param exitCode   its exit status; meaningless when it timed out or did not start
     * @param timedOut   killed, with everything it started, at the timeout
     * @param startError why it could not be started, or null
     */
    record Exit(int exitCode, boolean timedOut, String startError, String stdout, String stderrTail) {
        boolean ok() {
            return startError == null && !timedOut && exitCode == 0;
        }

        /** A one-line reason plus the stderr tail, for a measurement's detail. */
        String describe(String what, long timeoutMs) {
            String why = startError != null ? what + " could not start: " + startError
                    : timedOut ? what + " timed out after " + timeoutMs + " ms; its process group was killed"
                    : what + " exited with code " + exitCode + (exitCode > 128 ? " (signal " + (exitCode - 128) + ")" : "");
            // Short enough that the reason survives CandidateOutcome's cut, which keeps the end.
            String tail = stderrTail.length() > TAIL_CHARS ? stderrTail.substring(stderrTail.length() - TAIL_CHARS) : stderrTail;
            tail = tail.strip();
            return tail.isEmpty() ? why : why + ":\n" + tail;
        }
    }

    /**
     * Runs {@code argv} in {@code dir}. A relative program path containing a slash is taken from
     * {@code dir}, as a user reading the config would expect.
     *
     * @throws InterruptedException after killing the program, when the calling thread is interrupted
     */
    static Exit run(List<String> argv, Path dir, long timeoutMs) throws InterruptedException {
        List<String> cmd = new ArrayList<>();
        if (SETSID != null) {
            cmd.add(SETSID.toString());
            cmd.add("-w"); // should setsid have to fork, it still hands back the program's exit status
        }
        String program = argv.get(0);
        cmd.add(program.contains(File.separator) && !Path.of(program).isAbsolute() ? dir.resolve(program).toString() : program);
        cmd.addAll(argv.subList(1, argv.size()));
        Process p;
        try {
            p = new ProcessBuilder(cmd).directory(dir.toFile()).start();
        } catch (IOException e) {
            return new Exit(-1, false, e.getMessage(), "", "");
        }
        try {
            p.getOutputStream().close(); // nothing to read: a program waiting on stdin ends at once
        } catch (IOException ignored) {
            // already gone
        }
        StreamTail out = new StreamTail(p.getInputStream(), STDOUT_KEEP, "cmd-stdout-" + p.pid());
        StreamTail err = new StreamTail(p.getErrorStream(), STDERR_KEEP, "cmd-stderr-" + p.pid());
        boolean exited;
        try {
            exited = p.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            killTree(p);
            throw e;
        }
        // Also after a clean exit: whatever it left running in its group must not outlive it. The
        // Process object itself is destroyed only once its pipes are drained: destroying it closes
        // them, and output the readers had not taken yet (a failing build's error) would be lost.
        killGroup(p);
        out.awaitEnd(DRAIN_MS);
        err.awaitEnd(DRAIN_MS);
        p.destroyForcibly();
        p.waitFor(2, TimeUnit.SECONDS);
        return new Exit(exited ? p.exitValue() : -1, !exited, null, out.text(STDOUT_KEEP), err.text(STDERR_KEEP));
    }

    /** Kills the program, its process group (it leads one under setsid) and every descendant still attached. */
    static void killTree(Process p) throws InterruptedException {
        killGroup(p);
        p.destroyForcibly();
        p.waitFor(2, TimeUnit.SECONDS);
    }

    /** Kills the program's process group and its descendants, leaving the program's own pipes open to drain. */
    private static void killGroup(Process p) throws InterruptedException {
        List<ProcessHandle> descendants = p.descendants().toList();
        if (SETSID != null && KILL != null) {
            try {
                new ProcessBuilder(KILL.toString(), "-KILL", "--", "-" + p.pid()).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(2, TimeUnit.SECONDS);
            } catch (IOException e) {
                // fall through to the descendants
            }
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    private static Path firstExecutable(String... candidates) {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) return null;
        for (String c : candidates) {
            Path p = Path.of(c);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }
}
