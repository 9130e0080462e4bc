package org.tunefarm.coordinator.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.replay.ReplaySpaces;
import org.tunefarm.replay.ReplaySpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tunefarm coordinator}: runs one coordinator until interrupted. */
@Command(name = "coordinator", description = "Run a coordinator (Hazelcast member, agent bridge, REST).", mixinStandardHelpOptions = true)
final class CoordinatorCommand implements Callable<Integer> {

    @Option(names = "--config", description = "coordinator.yaml (default: built-in defaults).")
    Path config;

    @Option(names = "--data", description = "Data folder for the record and sweep logs.")
    Path data;

    @Option(names = "--http-port", description = "REST port.")
    Integer httpPort;

    @Option(names = "--bridge-port", description = "Agent bridge port.")
    Integer bridgePort;

    @Option(names = "--token", description = "Farm token agents must present (default: $TUNEFARM_TOKEN or the config's)."
            + " Shown by ps: prefer --token-file or the environment for a long-running coordinator.")
    String token = System.getenv("TUNEFARM_TOKEN");

    @Option(names = "--token-file", paramLabel = "FILE", description = "Read the farm token from FILE (its first line).")
    Path tokenFile;

    @Option(names = "--cluster", description = "Hazelcast cluster name: coordinators with the same name form one farm.")
    String cluster;

    @Option(names = "--quorum", description = "Members a coordinator must see to dispatch (default 1; 2 with 3 coordinators).")
    Integer quorum;

    @Option(names = "--spaces", paramLabel = "DIR",
            description = "Folder of Kernel Tuner cache files to offer as replay.<file stem> kernels (agents need the same --spaces).")
    Path spaces;

    @Override public Integer call() throws Exception {
        if (spaces != null) {
            // Read each recording now: sweep validation runs on the event loop and must not wait on a parse.
            for (ReplaySpec s : ReplaySpaces.register(spaces)) {
                System.out.printf("tunefarm coordinator: %s = %s%n", s.op(), s.recorded());
            }
        }
        CoordinatorConfig c = config != null ? CoordinatorConfig.load(config) : CoordinatorConfig.defaults();
        if (data != null) c = c.withDataDir(data);
        if (httpPort != null || bridgePort != null) c = c.withPorts(httpPort != null ? httpPort : c.httpPort(), bridgePort != null ? bridgePort : c.bridgePort());
        if (tokenFile != null) token = readToken(tokenFile);
        if (token != null) c = c.withTokens(token, c.adminToken());
        if (cluster != null) c = c.withClusterName(cluster);
        if (quorum != null) c = c.withQuorum(quorum);
        Coordinator coordinator = new Coordinator(c).start();
        System.out.printf("tunefarm coordinator: REST http://%s:%d  bridge %s:%d  data %s%n", c.httpHost(), coordinator.httpPort(),
                c.bridgeHost(), c.bridgePort(), c.dataDir().toAbsolutePath());
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                coordinator.close();
            } catch (Exception ignored) {
                // shutting down
            }
            stop.countDown();
        }));
        stop.await();
        return 0;
    }

    private static String readToken(Path file) throws IOException {
        String t = Files.readString(file).strip().lines().findFirst().orElse("").strip();
        if (t.isEmpty()) throw new IllegalArgumentException("--token-file: " + file + " is empty");
        return t;
    }
}
