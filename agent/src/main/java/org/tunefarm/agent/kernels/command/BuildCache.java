package org.tunefarm.agent.kernels.command;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.measure.Status;

/**
 * Builds each distinct configuration of a command kernel once, for the agent's lifetime (across
 * leases and sweeps). The key is the kernel and the values of the placeholders its build command
 * uses, so a build that does not depend on the shape is shared by every shape. Concurrent callers
 * of one key wait for the one build. A build that failed by itself (non-zero exit) stays failed;
 * one that timed out or was interrupted is forgotten, so a calmer moment can retry it.
 */
public final class BuildCache {
    private final Map<String, CompletableFuture<Built>> builds = new ConcurrentHashMap<>();
    private final AtomicInteger started = new AtomicInteger();

    /** A build's result: null failure means it built. */
    private record Built(CandidateOutcome failure, boolean retryable) {}

    /**
     * Builds the configuration unless it was built before.
     *
     * @param values every placeholder's value for this candidate
     * @return null when built, else the failure (BUILD_FAILED or TIMEOUT) to record for the candidate
     */
    CandidateOutcome build(CommandKernel kernel, Map<String, String> values) throws InterruptedException {
        if (kernel.build() == null) return null;
        Map<String, String> used = new TreeMap<>();
        for (String n : kernel.build().names()) used.put(n, values.get(n));
        String key = kernel.name() + used;
        CompletableFuture<Built> mine = new CompletableFuture<>();
        CompletableFuture<Built> existing = builds.putIfAbsent(key, mine);
        if (existing == null) {
            try {
                mine.complete(run(kernel, values));
            } catch (InterruptedException | RuntimeException e) {
                builds.remove(key, mine);
                mine.complete(new Built(CandidateOutcome.failed(Status.CRASH, "build interrupted"), true));
                throw e;
            }
            if (mine.join().retryable()) builds.remove(key, mine);
            return mine.join().failure();
        }
        try {
            return existing.get().failure();
        } catch (ExecutionException e) {
            return CandidateOutcome.failed(Status.BUILD_FAILED, "build: " + e.getCause());
        }
    }

    private Built run(CommandKernel kernel, Map<String, String> values) throws InterruptedException {
        started.incrementAndGet();
        CommandProcess.Exit exit = CommandProcess.run(kernel.build().substitute(values), kernel.workdir(), kernel.buildTimeoutMs());
        if (exit.ok()) return new Built(null, false);
        String detail = exit.describe("build", kernel.buildTimeoutMs());
        if (exit.timedOut()) return new Built(CandidateOutcome.failed(Status.TIMEOUT, detail), true);
        return new Built(CandidateOutcome.failed(Status.BUILD_FAILED, detail), exit.startError() != null);
    }

    /** How many builds were started, for tests and logs. */
    public int buildsStarted() {
        return started.get();
    }
}
