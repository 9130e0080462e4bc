package org.tunefarm.coordinator.boards;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.tunefarm.coordinator.local.AgentProcess;

/**
 * The agent as a board runs it, on another JVM than the test's: Java 17, an arm64 JRE under qemu,
 * a JVM without the Vector API. It runs the agent jar when {@code tunefarm.agentJar} names one
 * or {@code agent/target} holds one built from the current classes; otherwise (a plain
 * {@code mvn test} builds no jar) the agent's classes with exactly its jar's dependencies.
 */
final class BoardAgent implements AutoCloseable {
    private static final Path AGENT_TARGET = Path.of("..", "agent", "target");
    private static final Path SHARED_CLASSES = Path.of("..", "shared", "target", "classes");

    private final Process process;
    private final Path log;

    private BoardAgent(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * @param java       the {@code java} executable of the board's JRE
     * @param jvmOptions e.g. {@code --add-modules jdk.incubator.vector}, {@code -Dtunefarm.vectorBits=128}
     * @param env        added to the environment (the workers inherit it), e.g. {@code QEMU_CPU}
     */
    static BoardAgent start(String java, List<String> jvmOptions, Map<String, String> env, String id, String bridge, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmOptions);
        cmd.add("-Xmx256m");
        cmd.addAll(agentCode());
        cmd.addAll(List.of("--coordinator", bridge, "--id", id));
        System.out.println("agent " + id + ": " + String.join(" ", cmd));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        pb.environment().put("TUNEFARM_TOKEN", BoardFarm.TOKEN);
        return new BoardAgent(pb.start(), log);
    }

    /** {@code -jar JAR}, or {@code -cp CLASSES MAIN}. */
    static List<String> agentCode() {
        String jar = System.getProperty("tunefarm.agentJar");
        if (jar != null && !jar.isBlank()) return List.of("-jar", jar);
        Path built = freshJar();
        if (built != null) return List.of("-jar", built.toString());
        Path classpathFile = AGENT_TARGET.resolve("runtime-classpath.txt");
        if (!Files.isRegularFile(classpathFile)) {
            throw new IllegalStateException(classpathFile.toAbsolutePath() + " is missing: build the agent module first (mvn -pl coordinator -am)");
        }
        try {
            String deps = Files.readString(classpathFile).strip();
            String cp = AGENT_TARGET.resolve("classes").toAbsolutePath() + File.pathSeparator + deps;
            return List.of("-cp", cp, AgentProcess.MAIN);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The shaded agent jar, when it is newer than every class of the agent and shared modules. */
    private static Path freshJar() {
        try (Stream<Path> jars = Files.list(AGENT_TARGET)) {
            Path jar = jars.filter(p -> p.getFileName().toString().matches("tunefarm-agent-.*-all\\.jar")).findFirst().orElse(null);
            if (jar == null) return null;
            long built = Files.getLastModifiedTime(jar).toMillis();
            for (Path classes : List.of(AGENT_TARGET.resolve("classes"), SHARED_CLASSES)) {
                try (Stream<Path> files = Files.walk(classes)) {
                    if (files.anyMatch(f -> modified(f) > built)) return null;
                }
            }
            return jar.toAbsolutePath();
        } catch (IOException e) {
            return null;
        }
    }

    private static long modified(Path f) {
        try {
            return Files.getLastModifiedTime(f).toMillis();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
