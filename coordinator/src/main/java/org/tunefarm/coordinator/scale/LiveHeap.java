package org.tunefarm.coordinator.scale;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.tunefarm.coordinator.local.CoordinatorProcess;

/**
 * The heap a coordinator process keeps alive: a full collection first (jcmd, beside this JVM's
 * java), then its own JVM metrics on /metrics ({@code jvm_memory_used_bytes}, area heap), so the
 * figure is what the coordinator holds, not garbage.
 */
final class LiveHeap {
    private LiveHeap() {}

    static double mb(CoordinatorProcess c, PrintStream log) throws Exception {
        Path javaBin = Path.of(ProcessHandle.current().info().command().orElse("java"));
        Path jcmd = javaBin.resolveSibling("jcmd");
        if (Files.isExecutable(jcmd)) {
            Process p = new ProcessBuilder(jcmd.toString(), String.valueOf(c.pid()), "GC.run").redirectErrorStream(true).start();
            p.getInputStream().transferTo(OutputStream.nullOutputStream());
            p.waitFor();
        } else {
            log.println("no jcmd beside " + javaBin + ": the heap figure includes garbage");
        }
        double bytes = 0;
        for (String line : c.text("/metrics", Duration.ofSeconds(30)).split("\n")) {
            if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) bytes += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
        return bytes / (1 << 20);
    }
}
