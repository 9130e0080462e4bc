package org.tunefarm.coordinator.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.tunefarm.coordinator.chaos.ChaosAudit;
import org.tunefarm.coordinator.chaos.ChaosRun;
import org.tunefarm.coordinator.partition.PartitionCommand;
import org.tunefarm.coordinator.scale.FarmRun;
import org.tunefarm.coordinator.scale.IngestRun;
import org.tunefarm.coordinator.scale.RestartRun;
import org.tunefarm.coordinator.thermal.ThermalOutcome;
import org.tunefarm.coordinator.thermal.ThermalRun;
import org.tunefarm.protocol.Protocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tunefarm bench chaos|partition|thermal|restart|ingest|farm}: the farm's benchmarks that need coordinators. */
@Command(name = "bench", description = "Benchmarks of the farm itself.", mixinStandardHelpOptions = true, subcommands = {BenchCommand.Chaos.class, PartitionCommand.class, BenchCommand.Thermal.class, BenchCommand.Restart.class, BenchCommand.Ingest.class, BenchCommand.Farm.class})
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

    @Command(name = "restart", mixinStandardHelpOptions = true,
            description = "Write a season of records, then time a coordinator starting on it (open, heap, table) and a second one with an "
                    + "empty disk catching up from it.")
    static final class Restart implements Callable<Integer> {
        @Option(names = "--records", description = "Records in the history (default: 100000; with --quick 20000). About 800 bytes each, per coordinator.")
        Long records;

        @Option(names = "--quick", description = "A smoke run of 20,000 records.")
        boolean quick;

        @Option(names = "--heap", defaultValue = "1g", description = "Each coordinator's -Xmx (default: ${DEFAULT-VALUE}).")
        String heap;

        @Option(names = "--dir", description = "Where the two coordinators keep data and logs (default: a new temporary folder).")
        Path dir;

        @Option(names = "--running", defaultValue = "2", description = "Sweeps of the season still running, the last ones; the rest are over and "
                + "were let go, as a leader keeps them; 'all' for none let go (default: ${DEFAULT-VALUE}).")
        String running;

        @Option(names = "--no-catch-up", description = "Only the start: no second coordinator catching up (a long history's catch-up takes many minutes).")
        boolean noCatchUp;

        @Override public Integer call() throws Exception {
            long n = records != null ? records : quick ? 20_000 : 100_000;
            int live;
            try {
                live = running.equals("all") ? -1 : Integer.parseInt(running);
                if (live < 0 && !running.equals("all")) throw new NumberFormatException();
            } catch (NumberFormatException e) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--running: a count of sweeps (0 or more) or 'all', got " + running);
            }
            if (n < 1) throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--records must be at least 1, got " + n);
            Path d = dir != null ? dir : java.nio.file.Files.createTempDirectory("tunefarm-restart-");
            RestartRun.Outcome o = new RestartRun(new RestartRun.Settings(n, d, heap, java.time.Duration.ofMinutes(quick ? 2 : 15), live, !noCatchUp),
                    System.err).run();
            System.err.println("restart: data and logs in " + d);
            System.out.println(Protocol.write(o));
            return o.tableEqual() && (noCatchUp || o.catchUpSeconds() != null) ? 0 : 1;
        }
    }

    @Command(name = "ingest", mixinStandardHelpOptions = true,
            description = "Many agents report at once to a leader whose acknowledgement waits for two coordinators' fsyncs: durable records "
                    + "per second, fsyncs, acknowledgement latency; then checks both logs hold every acknowledged record in order.")
    static final class Ingest implements Callable<Integer> {
        @Option(names = "--agents", defaultValue = "64", description = "Agents reporting at once, one report out each (default: ${DEFAULT-VALUE}).")
        int agents;

        @Option(names = "--batch", defaultValue = "1", description = "Records per report (default: ${DEFAULT-VALUE}, as the agent reports today).")
        int batch;

        @Option(names = "--seconds", description = "How long agents keep reporting (default: 20; with --quick 3).")
        Double seconds;

        @Option(names = "--quick", description = "A smoke run of 3 seconds.")
        boolean quick;

        @Option(names = "--dir", description = "Where the two coordinators keep their logs (default: a new temporary folder).")
        Path dir;

        @Option(names = "--compare-copy", description = "Alternate the leader's copy format in stretches (text, objects, ...: "
                + "what coordinators send now and sent before) and report records/s of each and their ratio.")
        boolean compareCopy;

        @Override public Integer call() throws Exception {
            double t = seconds != null ? seconds : quick ? 3 : 20;
            if (agents < 1 || batch < 1 || t <= 0) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--agents, --batch and --seconds must be positive");
            }
            Path d = dir != null ? dir : java.nio.file.Files.createTempDirectory("tunefarm-ingest-");
            IngestRun.Outcome o = new IngestRun(new IngestRun.Settings(agents, batch, t, d, compareCopy), System.err).run();
            System.err.println("ingest: logs in " + d);
            System.out.println(Protocol.write(o));
            return o.durableOnBoth() ? 0 : 1;
        }
    }

    @Command(name = "farm", mixinStandardHelpOptions = true,
            description = "A leader and a replica coordinator serve many simulated agents (each its own bridge connection) measuring "
                    + "fixed-time candidates: throughput, efficiency against one agent, dispatch latency, records/s, the leader's CPU "
                    + "and heap, per agent count; or real agent processes (--real-agents) and the overhead per candidate in their records.")
    static final class Farm implements Callable<Integer> {
        @Option(names = "--agents", split = ",", description = "Agent counts, one step each; a 1-agent step is added first when missing, "
                + "as efficiency's base (default: 1,8,64,256; with --quick 1,4).")
        java.util.List<Integer> agents;

        @Option(names = "--candidate-ms", defaultValue = "50", description = "How long each candidate takes (default: ${DEFAULT-VALUE}).")
        long candidateMs;

        @Option(names = "--seconds", description = "Each step's measured window (default: 10; with --quick 3).")
        Double seconds;

        @Option(names = "--warmup", description = "Seconds each step runs before its window opens, once every agent holds a lease, "
                + "so the coordinators' JIT has compiled the step's paths (default: 20; with --quick 1).")
        Double warmup;

        @Option(names = "--batch", defaultValue = "auto", description = "Candidates per lease, or auto: leases sized to last about 10 s "
                + "(default: ${DEFAULT-VALUE}, the sweep default).")
        String batch;

        @Option(names = "--real-agents", defaultValue = "0", description = "Start this many real agent processes instead, measure a sleep "
                + "sweep to its end, and report the overhead per candidate from their records (default: simulated agents).")
        int realAgents;

        @Option(names = "--real-shapes", defaultValue = "4", description = "The real agents' sweep: sleep shapes of 507 candidates; an agent starts a worker JVM for each "
                + "shape it measures (default: ${DEFAULT-VALUE}).")
        int realShapes;

        @Option(names = "--quick", description = "A smoke run: 1 and 4 agents, 3-second windows, no warm-up step; with --real-agents, "
                + "97 candidates a shape.")
        boolean quick;

        @Option(names = "--dir", description = "Where the coordinators (and real agents) keep data and logs (default: a new temporary folder).")
        Path dir;

        @Override public Integer call() throws Exception {
            FarmRun.Settings settings;
            try {
                settings = new FarmRun.Settings(agents != null ? agents : quick ? java.util.List.of(1, 4) : java.util.List.of(1, 8, 64, 256), candidateMs,
                        seconds != null ? seconds : quick ? 3 : 10, warmup != null ? warmup : quick ? 1 : 20, FarmRun.batch(batch), quick, realAgents, realShapes,
                        dir != null ? dir : java.nio.file.Files.createTempDirectory("tunefarm-farm-"));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), e.getMessage());
            }
            FarmRun.Outcome o = new FarmRun(settings, System.err).run();
            System.err.println("farm: data and logs in " + settings.dir());
            System.out.println(Protocol.write(o));
            return o.everyAgentServed() ? 0 : 1;
        }
    }
}
