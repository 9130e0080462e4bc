package org.tunefarm.agent.testkernels;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;

/**
 * A family whose candidates misbehave as {@code params.behaviour} says: {@code ok}, {@code chatty}
 * (prints to System.out), {@code wrong}, {@code nan}, {@code miscompiled} (right on its first call,
 * wrong from then on, as a JIT-compiled kernel gone wrong would be), {@code throw}, {@code invalid} (rejected by
 * {@code candidate()}), {@code exit} (System.exit(3)), {@code halt} (Runtime.halt(7)), {@code spin}
 * (never returns), {@code spawn} (starts {@code sleep 600}, writes its pid to {@code params.pidFile},
 * then spins). Counts calls of {@code run()} and {@code workload()} per instance.
 */
public final class RogueFamily implements KernelFamily {

    public static final String OP = "test-rogue";
    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicInteger workloads = new AtomicInteger();

    public static KernelKey key() {
        return new KernelKey(OP, Map.of("n", 1), "fp32");
    }

    public static Map<String, Object> params(String behaviour) {
        return Map.of("behaviour", behaviour);
    }

    public int runs() { return runs.get(); }

    public int workloads() { return workloads.get(); }

    @Override public KernelSpec spec() { return new TestSpec(OP); }

    @Override public Workload workload(KernelKey key, long seed) {
        workloads.incrementAndGet();
        return new Workload() {
            @Override public KernelKey key() { return key; }
            @Override public double errorBound() { return 1e-6; }
        };
    }

    @Override public Candidate candidate(Workload workload, Map<String, Object> params) {
        String behaviour = String.valueOf(params.get("behaviour"));
        if (behaviour.equals("invalid")) throw new IllegalArgumentException("tile 7 does not divide n");
        Object pidFile = params.get("pidFile");
        AtomicInteger ownRuns = new AtomicInteger();
        return new Candidate() {
            @Override public void run() {
                runs.incrementAndGet();
                ownRuns.incrementAndGet();
                switch (behaviour) {
                    case "ok", "wrong", "nan", "miscompiled" -> spin(20_000);
                    case "chatty" -> {
                        System.out.println("chatty kernel writes to stdout");
                        spin(20_000);
                    }
                    case "throw" -> throw new IllegalStateException("kernel fell over");
                    case "exit" -> {
                        System.err.println("rogue: exiting with 3");
                        System.exit(3);
                    }
                    case "halt" -> Runtime.getRuntime().halt(7);
                    case "spin" -> spin(Long.MAX_VALUE);
                    case "spawn" -> {
                        try {
                            Process child = new ProcessBuilder("sleep", "600").start();
                            Files.writeString(Path.of(String.valueOf(pidFile)), Long.toString(child.pid()));
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        spin(Long.MAX_VALUE);
                    }
                    default -> throw new IllegalStateException("unknown behaviour " + behaviour);
                }
            }

            @Override public double maxError() {
                return switch (behaviour) {
                    case "wrong" -> 1.0;
                    case "nan" -> Double.NaN;
                    case "miscompiled" -> ownRuns.get() > 1 ? 0.5 : 0.0;
                    default -> 0.0;
                };
            }
        };
    }

    private static void spin(long ns) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < ns) Thread.onSpinWait();
    }
}
