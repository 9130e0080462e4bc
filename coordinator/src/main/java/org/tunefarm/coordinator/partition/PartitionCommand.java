package org.tunefarm.coordinator.partition;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.tunefarm.coordinator.local.CoordinatorProcess;
import org.tunefarm.protocol.Protocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tunefarm bench partition}: stages a network of namespaces (as root), runs itself again
 * inside the hub namespace, where it runs both scenarios, and removes the namespaces afterwards
 * whatever happened. The last line is a JSON array, one object per scenario.
 */
@Command(name = "partition", mixinStandardHelpOptions = true,
        description = "Cut a farm in two with network namespaces (root, iproute2) during a sleep sweep, heal it; check nothing is lost or kept twice.")
public final class PartitionCommand implements Callable<Integer> {
    /** Exit status when the namespaces could not be made (not root, no iproute2, no netns support). */
    public static final int CANNOT_STAGE = 3;

    @Option(names = "--quick", description = "A shorter run for the test suite: one shape with a in [0, 7] (257 candidates), one agent a side, a 20 s cut.")
    boolean quick;

    @Option(names = "--cut-seconds", description = "How long side 2 stays cut off (default 30; 20 with --quick).")
    Integer cutSeconds;

    @Option(names = "--dir", description = "Where the processes keep data and logs (default: a new temporary folder).")
    Path dir;

    @Option(names = "--stage", hidden = true, description = "Run inside the hub of the stage with this id (set by the outer run).")
    String stage;

    @Override public Integer call() throws Exception {
        Path d = dir != null ? dir : Files.createTempDirectory("tunefarm-partition-");
        return stage == null ? stageAndRun(d) : runInside(d);
    }

    private int stageAndRun(Path d) throws Exception {
        NetworkStage net;
        try {
            net = NetworkStage.make(2);
        } catch (Exception e) {
            System.err.println("partition: cannot stage network namespaces (needs root and iproute2): " + e.getMessage());
            return CANNOT_STAGE;
        }
        Thread cleanup = new Thread(net::close);
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            List<String> cmd = new ArrayList<>(net.inside(net.hub()));
            cmd.addAll(CoordinatorProcess.jvm("-Xmx256m"));
            cmd.addAll(List.of("bench", "partition", "--stage", net.id(), "--dir", d.toString()));
            if (quick) cmd.add("--quick");
            if (cutSeconds != null) cmd.addAll(List.of("--cut-seconds", cutSeconds.toString()));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) System.out.println(line);
            } finally {
                if (p.isAlive()) p.destroyForcibly();
            }
            return p.waitFor();
        } finally {
            net.close();
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    private int runInside(Path d) throws Exception {
        NetworkStage net = NetworkStage.existing(stage, 2);
        int cut = cutSeconds != null ? cutSeconds : quick ? 20 : 30;
        int agentsPerSide = quick ? 1 : 2;
        int shapes = quick ? 1 : 2;
        int maxA = quick ? 7 : 15;
        int batch = quick ? 16 : 12;
        // Long enough a candidate that the sweep is still running when the cut ends.
        int unitUs = quick ? 1000 : 2000;
        List<PartitionRun.Settings> scenarios = List.of(
                new PartitionRun.Settings(3, 2, agentsPerSide, shapes, unitUs, maxA, batch, cut, d.resolve("quorum-2")),
                new PartitionRun.Settings(2, 1, agentsPerSide, shapes, unitUs, maxA, batch, cut, d.resolve("quorum-1")));
        List<PartitionAudit.Outcome> outcomes = new ArrayList<>();
        for (PartitionRun.Settings s : scenarios) {
            PartitionAudit.Outcome o = new PartitionRun(s, net, System.err).run();
            System.err.println("partition: " + Protocol.write(o));
            outcomes.add(o);
        }
        System.err.println("partition: data and logs in " + d);
        System.out.println(Protocol.write(outcomes));
        return outcomes.stream().allMatch(PartitionAudit.Outcome::passed) ? 0 : 1;
    }
}
