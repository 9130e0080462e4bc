package org.tunefarm.coordinator.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The simulated heating device ({@code org.tunefarm.agent.kernels.heatsim.HeatDeviceMain}) as its
 * own process, beside the agent as a board's physics would be: started from the agent jar when
 * {@code tunefarm.agentJar} names one, else from this JVM's class path (tests).
 */
public final class HeatDeviceProcess implements AutoCloseable {
    public static final String MAIN = "org.tunefarm.agent.kernels.heatsim.HeatDeviceMain";
    /** Where the heatsim kernel finds the device: the agent passes it on to its workers. */
    public static final String DIR_ENV = "TUNEFARM_HEATSIM_DIR";

    private final Process process;
    private final Path dir;

    private HeatDeviceProcess(Process process, Path dir) {
        this.process = process;
        this.dir = dir;
    }

    /** Starts the device in {@code dir}, {@code faster} times quicker than the bench's, and waits until it has published its sensors. */
    public static HeatDeviceProcess start(Path dir, double faster, Path log) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("-Xmx64m");
        String jar = System.getProperty("tunefarm.agentJar");
        cmd.add("-cp");
        cmd.add(jar != null && !jar.isBlank() ? jar : System.getProperty("java.class.path"));
        cmd.add(MAIN);
        cmd.add(dir.toString());
        cmd.add(Double.toString(faster));
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        HeatDeviceProcess d = new HeatDeviceProcess(p, dir);
        Path temp = sysfsRoot(dir).resolve("class/thermal/thermal_zone0/temp");
        for (int i = 0; i < 300 && !Files.exists(temp); i++) {
            if (!p.isAlive()) throw new IllegalStateException("the heat device exited; see " + log);
            Thread.sleep(100);
        }
        if (!Files.exists(temp)) {
            d.close();
            throw new IllegalStateException("the heat device did not publish its sensors within 30 s; see " + log);
        }
        return d;
    }

    /** The fake sysfs tree the agent reads ({@code sensors.sysfsRoot}). */
    public static Path sysfsRoot(Path dir) {
        return dir.resolve("sys");
    }

    /** The device's temperature trace: one line per tick. */
    public Path trace() {
        return dir.resolve("trace.csv");
    }

    public Path dir() {
        return dir;
    }

    @Override public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
