package org.tunefarm.coordinator.local;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.tunefarm.protocol.Protocol;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A coordinator running as its own OS process on this machine (its own JVM and Hazelcast
 * member), started from this JVM's class path, so it can be killed with -9 like a real one.
 */
public final class CoordinatorProcess implements AutoCloseable {
    public static final String MAIN = "org.tunefarm.coordinator.cli.TunefarmCli";
    /** What Hazelcast needs on Java 17+, as in the parent pom's jvm.opens (no Vector API: agents run elsewhere). */
    private static final List<String> OPENS = List.of("--add-modules", "java.se",
            "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.management/sun.management=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED");

    private final Process process;
    /** Plain HTTP/1.1 to loopback: no h2c upgrade in the way; {@link #text} bounds each whole exchange. */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
    private final int httpPort;
    private final int bridgePort;
    private final Path data;

    private CoordinatorProcess(Process process, int httpPort, int bridgePort, Path data) {
        this.process = process;
        this.httpPort = httpPort;
        this.bridgePort = bridgePort;
        this.data = data;
    }

    public static CoordinatorProcess start(Path data, int httpPort, int bridgePort, String token, String cluster, Path log) throws IOException {
        return start(List.of(), data, httpPort, bridgePort, token, cluster, log, List.of());
    }

    /**
     * @param prefix    what the command runs under, e.g. {@code ip netns exec NAME}; empty for none
     * @param extraArgs further coordinator options, e.g. {@code --config FILE --quorum 2}
     */
    public static CoordinatorProcess start(List<String> prefix, Path data, int httpPort, int bridgePort, String token, String cluster, Path log,
                                           List<String> extraArgs) throws IOException {
        return start(prefix, "512m", data, httpPort, bridgePort, token, cluster, log, extraArgs);
    }

    /** @param maxHeap the coordinator's -Xmx, e.g. {@code 1g} (a benchmark of a long history sets the bound it is held to) */
    public static CoordinatorProcess start(List<String> prefix, String maxHeap, Path data, int httpPort, int bridgePort, String token, String cluster,
                                           Path log, List<String> extraArgs) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(jvm("-Xmx" + maxHeap, "-XX:+ExitOnOutOfMemoryError")); // out of heap: exit, as a supervised coordinator does
        cmd.addAll(List.of("coordinator", "--data", data.toString(), "--http-port", String.valueOf(httpPort),
                "--bridge-port", String.valueOf(bridgePort), "--cluster", cluster));
        cmd.addAll(extraArgs);
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("TUNEFARM_TOKEN", token); // never in argv, where ps shows it
        Process p = pb.start();
        return new CoordinatorProcess(p, httpPort, bridgePort, data);
    }

    /** This JVM's java, the options Hazelcast needs and its class path, then the CLI's main class. */
    public static List<String> jvm(String... options) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(OPENS);
        cmd.addAll(List.of(options));
        String agentJar = System.getProperty("tunefarm.agentJar");
        if (agentJar != null) cmd.add("-Dtunefarm.agentJar=" + agentJar);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(MAIN);
        return cmd;
    }

    public int httpPort() { return httpPort; }

    /** Its REST API on loopback, e.g. {@code http://127.0.0.1:8080}. */
    public String base() {
        return "http://127.0.0.1:" + httpPort;
    }

    /** A JSON answer from its REST API; any status but 200 is an IOException naming the path and the answer. Blocking. */
    public JsonNode get(String path, Duration timeout) throws IOException, InterruptedException {
        return Protocol.JSON.readTree(text(path, timeout));
    }

    /**
     * A text answer from its REST API, the whole exchange (the body included, which the request's
     * own timeout does not cover) within {@code timeout}; any status but 200 is an IOException. Blocking.
     */
    public String text(String path, Duration timeout) throws IOException, InterruptedException {
        HttpResponse<String> r;
        try {
            r = HTTP.sendAsync(HttpRequest.newBuilder(URI.create(base() + path)).timeout(timeout).build(), HttpResponse.BodyHandlers.ofString())
                    .get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(path + ": " + e.getCause(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new java.net.http.HttpTimeoutException(path + " did not answer within " + timeout);
        }
        if (r.statusCode() != 200) throw new IOException(path + " answered " + r.statusCode() + ": " + r.body());
        return r.body();
    }

    public int bridgePort() { return bridgePort; }

    public Path data() { return data; }

    public boolean alive() { return process.isAlive(); }

    public long pid() { return process.pid(); }

    /** kill -9: no shutdown hook runs, nothing is flushed that was not already. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override public void close() {
        if (!process.isAlive()) return;
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
        }
    }
}
