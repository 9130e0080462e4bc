package org.tunefarm.coordinator.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An agent running as its own OS process on this machine, as a board would run it: from the agent
 * jar when {@code tunefarm.agentJar} names one, else from this JVM's class path (tests).
 */
public final class AgentProcess implements AutoCloseable {
    public static final String MAIN = "org.tunefarm.agent.AgentMain";

    private final String id;
    private final Process process;
    private final Path log;

    private AgentProcess(String id, Process process, Path log) {
        this.id = id;
        this.process = process;
        this.log = log;
    }

    /**
     * @param coordinators bridge addresses, {@code host:port}
     * @param extraArgs    further agent options, e.g. {@code --label k=v}
     */
    public static AgentProcess start(String id, List<String> coordinators, String token, Path logFile, List<String> extraArgs) throws IOException {
        return start(List.of(), id, coordinators, token, logFile, extraArgs);
    }

    /** @param prefix what the command runs under, e.g. {@code ip netns exec NAME}; empty for none */
    public static AgentProcess start(List<String> prefix, String id, List<String> coordinators, String token, Path logFile, List<String> extraArgs)
            throws IOException {
        return start(prefix, id, coordinators, token, logFile, extraArgs, java.util.Map.of());
    }

    /** @param env more environment for the agent and the workers it starts, e.g. where a simulated device lives */
    public static AgentProcess start(List<String> prefix, String id, List<String> coordinators, String token, Path logFile, List<String> extraArgs,
                                     java.util.Map<String, String> env) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("--add-modules");
        cmd.add("jdk.incubator.vector");
        cmd.add("-Xmx512m");
        cmd.add("--enable-native-access=ALL-UNNAMED"); // OSHI reads sensors through JNA: allowed, so the JVM need not warn
        String jar = System.getProperty("tunefarm.agentJar");
        if (jar != null && !jar.isBlank()) {
            cmd.add("-jar");
            cmd.add(jar);
        } else {
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add(MAIN);
        }
        cmd.add("--coordinator");
        cmd.add(String.join(",", coordinators));
        cmd.add("--id");
        cmd.add(id);
        if (!extraArgs.contains("--state") && !extraArgs.contains("--credential-file")) {
            // Beside its log, so an agent restarted on the same log keeps the credential it enrolled for.
            cmd.add("--state");
            cmd.add(stateDir(logFile).toString());
        }
        cmd.addAll(extraArgs);
        Files.createDirectories(logFile.toAbsolutePath().getParent());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        pb.environment().putAll(env);
        pb.environment().put("TUNEFARM_TOKEN", token); // never in argv, where ps shows it
        Process p = pb.start();
        return new AgentProcess(id, p, logFile);
    }

    /** Where an agent started with this log keeps its credential, unless its arguments say otherwise. */
    public static Path stateDir(Path logFile) {
        return logFile.toAbsolutePath().getParent().resolve("agent-state");
    }

    /** The credential file of this agent in {@link #stateDir}. */
    public Path credentialFile() {
        return stateDir(log).resolve(id + ".credential");
    }

    public String id() { return id; }

    public long pid() { return process.pid(); }

    public boolean alive() { return process.isAlive(); }

    public Path log() { return log; }

    /** kill -9, as a power cut would: the agent and its worker JVMs. */
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override public void close() {
        if (!process.isAlive()) return;
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
        }
    }
}
