package org.tunefarm.agent.worker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.agent.kernels.VectorWidth;

/**
 * How to start a worker JVM.
 *
 * @param java             the {@code java} executable
 * @param classpath        the worker's class path
 * @param jvmArgs          extra JVM options, e.g. {@code -Xmx512m} or {@code -Dtunefarm.families=...}
 * @param startupTimeoutMs how long a worker may take to say hello before it counts as crashed
 * @param vectorBits       the vector width the worker must say it runs: that of the device class
 *                         it measures for (this JVM's, unless {@link #atVectorBits})
 */
public record WorkerCommand(String java, String classpath, List<String> jvmArgs, long startupTimeoutMs, int vectorBits) {

    public WorkerCommand {
        Objects.requireNonNull(java, "java");
        Objects.requireNonNull(classpath, "classpath");
        jvmArgs = List.copyOf(jvmArgs);
        if (startupTimeoutMs < 1) throw new IllegalArgumentException("startupTimeoutMs must be at least 1, got " + startupTimeoutMs);
    }

    /**
     * The same java, class path and vector width as this JVM, so the worker runs exactly the
     * agent's code on the kernels its device class was registered with.
     */
    public static WorkerCommand current() {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String forced = System.getProperty(VectorWidth.PROPERTY);
        List<String> args = forced == null || forced.isBlank() ? List.of() : List.of("-D" + VectorWidth.PROPERTY + "=" + forced.strip());
        return new WorkerCommand(java, System.getProperty("java.class.path"), args, 60_000, VectorWidth.bits());
    }

    public WorkerCommand withJvmArgs(String... more) {
        List<String> all = new ArrayList<>(jvmArgs);
        all.addAll(List.of(more));
        return new WorkerCommand(java, classpath, all, startupTimeoutMs, vectorBits);
    }

    /**
     * The same command with its kernels forced {@code bits} wide, which the worker must then say
     * it runs: for a bench that measures a narrower width beside this JVM's, never for an agent,
     * whose workers measure for the one device class it registered.
     */
    public WorkerCommand atVectorBits(int bits) {
        List<String> all = new ArrayList<>(jvmArgs.stream().filter(a -> !a.startsWith("-D" + VectorWidth.PROPERTY + "=")).toList());
        all.add("-D" + VectorWidth.PROPERTY + "=" + bits);
        return new WorkerCommand(java, classpath, all, startupTimeoutMs, bits);
    }

    /** The full command line. */
    public List<String> argv() {
        List<String> argv = new ArrayList<>();
        argv.add(java);
        // Only where this JVM has it: a JRE without the module refuses to start when asked for it,
        // and the worker must offer what the device class says (no vectors here, none there).
        if (VectorWidth.available()) {
            argv.add("--add-modules");
            argv.add(VectorWidth.MODULE);
        }
        argv.addAll(jvmArgs);
        argv.add("-cp");
        argv.add(classpath);
        argv.add(WorkerMain.class.getName());
        return argv;
    }

    /** A worker for one batch; its process starts on the first candidate. */
    public Worker newWorker() {
        return new WorkerProcess(this);
    }
}
