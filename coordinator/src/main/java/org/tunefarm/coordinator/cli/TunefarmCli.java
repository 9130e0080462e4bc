package org.tunefarm.coordinator.cli;

import org.tunefarm.coordinator.replay.ReplayCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ./tunefarm} command line. {@code agent} is run by the launcher from the agent jar. */
@Command(name = "tunefarm", mixinStandardHelpOptions = true, version = "tunefarm 0.1.0",
        description = "A distributed kernel-autotuning farm.",
        subcommands = {DemoCommand.class, CoordinatorCommand.class, SweepCommand.class, TableCommand.class, AgentsCommand.class, BenchCommand.class})
public final class TunefarmCli implements Runnable {

    @Override public void run() {
        commandLine().usage(System.out);
    }

    /** The whole command tree; {@code replay} is added built, because its help footer lists the strategies. */
    public static CommandLine commandLine() {
        return new CommandLine(new TunefarmCli())
                .addSubcommand("replay", ReplayCommand.commandLine())
                .addSubcommand("help", new CommandLine.HelpCommand());
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
