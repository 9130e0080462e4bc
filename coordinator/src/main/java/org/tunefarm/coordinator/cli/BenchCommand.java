package org.tunefarm.coordinator.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.tunefarm.coordinator.chaos.ChaosAudit;
import org.tunefarm.coordinator.chaos.ChaosRun;
import org.tunefarm.coordinator.partition.PartitionCommand;
import org.tunefarm.coordinator.thermal.ThermalOutcome;
import org.tunefarm.coordinator.thermal.ThermalRun;
import org.tunefarm.protocol.Protocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tunefarm bench chaos|partition|thermal}: the farm's benchmarks that need coordinators. */
@Command(name = "bench", description = "Benchmarks of the farm itself.", mixinStandardHelpOptions = true, subcommands = {BenchCommand.Chaos.class, PartitionCommand.class, BenchCommand.Thermal.class})
final class BenchCommand {

    @Command(name = "chaos", mixinStandardHelpOptions = true,
            description = "Kill -9 agents and a coordinator during a sleep sweep; check nothing is lost or duplicated.")
    static final class Chaos implements Callable<Integer> {
        @Option(names = "--coordinators", defaultValue = "2", description = "Coordinator processes (default: ${DEFAULT-VALUE}).")
        int coordinators;

        @Option(names = "--agents", defaultValue = "6", description = "Agent processes (default: ${DEFAULT-VALUE}).")
        int agents;

        @Option(names = "--seconds", defaultValue = "90", description = "How long to keep killing (default: ${DEFAULT-VALUE}).")
        int seconds;

        @Option(names = "--shapes", defaultValue = "4", description = "Sleep shapes, 507 candidates each (default: ${DEFAULT-VALUE}).")
        int shapes;

        @Option(names = "--unit-us", defaultValue = "1000", description = "Sleep kernel time unit in µs (default: ${DEFAULT-VALUE}).")
        int unitUs;

        @Option(names = "--seed", defaultValue = "1", description = "Seed of the kill schedule.")
        long seed;

        @Option(names = "--dir", description = "Where the processes keep data and logs (default: a new temporary folder).")
        Path dir;

        @Override public Integer call() throws Exception {
            Path d = dir != null ? dir : java.nio.file.Files.createTempDirectory("tunefarm-chaos-");
            ChaosAudit.Outcome o = new ChaosRun(new ChaosRun.Settings(coordinators, agents, seconds, shapes, unitUs, 15, seed, d), System.err).run();
            System.err.println("chaos: data and logs in " + d);
            System.out.println(Protocol.write(o));
            return o.passed() ? 0 : 1;
        }
    }

    @Command(name = "thermal", mixinStandardHelpOptions = true,
            description = "Tune a simulated heating device for latency and for sustained speed through a real coordinator and agent; "
                    + "check the sustained winner against the heat model's.")
    static final class Thermal implements Callable<Integer> {
        @Option(names = "--quick", description = "A smoke run: 3 finalists run 5 s each (default: 4 run 10 s).")
        boolean quick;

        @Option(names = "--dir", description = "Where the processes keep data and logs (default: a new temporary folder).")
        Path dir;

        @Override public Integer call() throws Exception {
            Path d = dir != null ? dir : java.nio.file.Files.createTempDirectory("tunefarm-thermal-");
            ThermalRun.Settings settings = quick ? ThermalRun.Settings.quick(d) : ThermalRun.Settings.full(d);
            ThermalOutcome o = new ThermalRun(settings, System.err).run();
            System.err.println("thermal: data, logs, the table (table.json) and the device's temperature trace in " + d);
            System.out.println(Protocol.write(o));
            return o.passed() ? 0 : 1;
        }
    }
}
