package org.tunefarm.agent.update;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs this agent again, with the same java, JVM options, jar and arguments, once its jar was
 * replaced. A JVM cannot replace its own process image, so this process stays as the new one's
 * parent: it passes its standard streams through, forwards a stop to it, and exits with its
 * status, so a service manager sees one agent that keeps running.
 */
public final class Restart {

    private Restart() {}

    /** The command that started this JVM: java, its options, {@code -jar JAR}, the arguments. */
    static List<String> command(String[] args) {
        var info = ProcessHandle.current().info();
        List<String> cmd = new ArrayList<>();
        if (info.command().isPresent() && info.arguments().isPresent()) {
            cmd.add(info.command().get());
            cmd.addAll(List.of(info.arguments().get()));
            return cmd;
        }
        cmd.add(info.command().orElse(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.add("-jar");
        cmd.add(System.getProperty("java.class.path"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Starts the new agent and waits for it; returns its exit status. */
    public static int run(String[] args) throws Exception {
        Process p = new ProcessBuilder(command(args)).inheritIO().start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            p.destroy();
            try {
                p.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        return p.waitFor();
    }
}
