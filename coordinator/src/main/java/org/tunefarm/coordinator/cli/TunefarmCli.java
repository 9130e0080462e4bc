package org.tunefarm.coordinator.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ./tunefarm} command line. {@code agent} is run by the launcher from the agent jar. */
@Command(name = "tunefarm", mixinStandardHelpOptions = true, version = "tunefarm 0.1.0",
        description = "A distributed kernel-autotuning farm.",
        subcommands = {DemoCommand.class, CoordinatorCommand.class, SweepCommand.class, TableCommand.class, BenchCommand.class,
                CommandLine.HelpCommand.class})
public final class TunefarmCli implements Runnable {

    @Override public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new TunefarmCli()).execute(args));
    }
}
