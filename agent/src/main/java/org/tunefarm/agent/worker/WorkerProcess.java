package org.tunefarm.agent.worker;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Status;

/**
 * Supervises one worker JVM: sends a candidate, waits for its answer within the timeout, kills the
 * whole process tree when it overruns, and starts a new JVM for the next candidate after a death.
 */
final class WorkerProcess implements Worker {

    private static final int TAIL_CHARS = 1500;
    /** How long a closed worker gets to exit by itself before it is killed. */
    private static final long EXIT_GRACE_MS = 2000;

    private final WorkerCommand command;
    private Process process;
    private Writer stdin;
    private BlockingQueue<Line> stdout;
    private StderrTail stderr;
    private long seq;

    /** A line of stdout, or the end of it. */
    private record Line(String text) {
        static final Line END = new Line(null);
    }

    WorkerProcess(WorkerCommand command) {
        this.command = command;
    }

    /** The running worker, for tests that check it was killed; null when none runs. */
    ProcessHandle handle() {
        return process == null ? null : process.toHandle();
    }

    @Override
    public CandidateOutcome measure(KernelKey key, Map<String, Object> params, MeasureSettings settings) {
        Answer a = ask(new WorkerRequest(0, key, params, settings), settings.timeoutMs());
        return a.failure != null ? a.failure : a.response.outcome();
    }

    @Override
    public CandidateOutcome sustain(KernelKey key, Map<String, Object> params, MeasureSettings settings, double seconds) {
        MeasureSettings longer = Worker.forSustained(settings, seconds);
        Answer a = ask(new WorkerRequest(0, key, params, longer, null, seconds), longer.timeoutMs());
        return a.failure != null ? a.failure : a.response.outcome();
    }

    @Override
    public List<CandidateOutcome> measureInterleaved(KernelKey key, List<Map<String, Object>> params, MeasureSettings settings) {
        // The group shares one request: its timeout is the members' together.
        Answer a = ask(new WorkerRequest(0, key, null, settings, params), settings.timeoutMs() * Math.max(1, params.size()));
        if (a.failure != null) return java.util.Collections.nCopies(params.size(), a.failure);
        List<CandidateOutcome> out = a.response.outcomes();
        if (out == null || out.size() != params.size()) return java.util.Collections.nCopies(params.size(), CandidateOutcome.failed(Status.CRASH, "worker answered a group with " + out));
        return out;
    }

    /** A response, or the failure that stands for it. */
    private record Answer(WorkerResponse response, CandidateOutcome failure) {}

    private Answer ask(WorkerRequest template, long timeoutMs) {
        try {
            if (process == null) {
                String failure = start();
                if (failure != null) return new Answer(null, CandidateOutcome.failed(Status.CRASH, failure));
            }
            long id = ++seq;
            try {
                stdin.write(WorkerCodec.line(new WorkerRequest(id, template.key(), template.params(), template.settings(), template.group(),
                        template.sustainedSeconds())));
                stdin.write('\n');
                stdin.flush();
            } catch (IOException e) {
                return new Answer(null, died("worker's stdin closed: " + e.getMessage()));
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            while (true) {
                Line line = stdout.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    kill();
                    return new Answer(null, CandidateOutcome.failed(Status.TIMEOUT, "no answer within " + timeoutMs + " ms; worker killed"));
                }
                if (line == Line.END) return new Answer(null, died("worker exited"));
                WorkerResponse response;
                try {
                    response = WorkerCodec.parse(line.text(), WorkerResponse.class);
                } catch (IllegalArgumentException e) {
                    kill();
                    return new Answer(null, CandidateOutcome.failed(Status.CRASH, "worker broke the protocol: " + e.getMessage() + "\n" + stderr.tail(TAIL_CHARS)));
                }
                if (response.seq() == id) return new Answer(response, null);
                // An answer to an older request cannot happen with one request in flight; skip it.
            }
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
            return new Answer(null, CandidateOutcome.failed(Status.CRASH, "interrupted; worker killed"));
        }
    }

    /** Starts the JVM and waits for its hello; returns why it failed, or null. */
    private String start() throws InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command.argv());
        try {
            process = pb.start();
        } catch (IOException e) {
            process = null;
            return "cannot start worker " + command.java() + ": " + e.getMessage();
        }
        stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        stderr = new StderrTail(process.getErrorStream(), "worker-stderr-" + process.pid());
        stdout = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> pump(process, stdout), "worker-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(command.startupTimeoutMs());
        Line hello;
        // The JVM itself may print on stdout before main runs (a flight recording or -Xlog asked for
        // in JDK_JAVA_OPTIONS, -XX:+PrintFlagsFinal): such lines are no JSON object, and skipped.
        do {
            hello = stdout.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } while (hello != null && hello != Line.END && !hello.text().startsWith("{"));
        if (hello == null) {
            kill();
            return "worker did not start within " + command.startupTimeoutMs() + " ms";
        }
        if (hello == Line.END) return died("worker exited on start").detail();
        try {
            WorkerHello h = WorkerCodec.parse(hello.text(), WorkerHello.class);
            if (h.protocol() != WorkerHello.PROTOCOL) {
                kill();
                return "worker speaks protocol " + h.protocol() + ", agent " + WorkerHello.PROTOCOL;
            }
            // A worker on other vectors than commanded would measure another device class than the one its records name.
            if (h.vectorBits() != command.vectorBits()) {
                kill();
                return "worker runs " + h.vectorBits() + "-bit vector kernels, but was commanded to run " + command.vectorBits() + "-bit ones";
            }
        } catch (IllegalArgumentException e) {
            kill();
            return "worker's first line is not a hello: " + e.getMessage();
        }
        return null;
    }

    private static void pump(Process p, BlockingQueue<Line> lines) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String s = r.readLine(); s != null; s = r.readLine()) lines.add(new Line(s));
        } catch (IOException closed) {
            // killed; END follows
        }
        lines.add(Line.END);
    }

    /** The worker is gone: report its exit code and last words, and start afresh next time. */
    private CandidateOutcome died(String what) {
        Process p = process;
        StderrTail tail = stderr;
        String code = "";
        try {
            if (p.waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS)) code = " with code " + p.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kill();
        tail.awaitEnd(500);
        String last = tail.tail(TAIL_CHARS);
        return CandidateOutcome.failed(Status.CRASH, what + code + (last.isEmpty() ? "" : ":\n" + last));
    }

    /** Kills the worker and every process it started; the next candidate starts a new one. */
    private void kill() {
        Process p = process;
        if (p == null) return;
        process = null;
        // Children first: once the parent dies they are re-parented and no longer its descendants.
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            stdin.close();
        } catch (IOException alreadyClosed) {
            // nothing to flush to a dead process
        }
    }

    @Override
    public void close() {
        Process p = process;
        if (p == null) return;
        // Taken now: after the worker exits, threads or processes a kernel left behind are orphans.
        java.util.List<ProcessHandle> children = p.descendants().toList();
        try {
            stdin.close(); // the worker exits at the end of its input
            if (!p.waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS)) kill();
            children.forEach(ProcessHandle::destroyForcibly);
        } catch (IOException e) {
            kill();
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
        }
        process = null;
    }
}
