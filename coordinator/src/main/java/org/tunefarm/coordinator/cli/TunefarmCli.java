package org.tunefarm.coordinator.cli;

import org.tunefarm.coordinator.replay.ReplayCommand;
import org.tunefarm.log.OperatorLog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The {@code ./tunefarm} command line. {@code agent} is run by the launcher from the agent jar. */
@Command(name = "tunefarm", mixinStandardHelpOptions = true, version = "tunefarm 0.1.0",
        description = "A distributed kernel-autotuning farm.",
        subcommands = {DemoCommand.class, CoordinatorCommand.class, SweepCommand.class, TableCommand.class, AgentsCommand.class, BenchCommand.class})
public final class TunefarmCli implements Runnable {

    @Option(names = "--verbose", scope = ScopeType.INHERIT,
            description = "Also log Hazelcast's, Vert.x's and Netty's start-up and INFO lines (quiet by default).")
    boolean verbose;

    @Override public void run() {
        commandLine().usage(System.out);
    }

    /**
     * The whole command tree; {@code replay} is added built, because its help footer lists the
     * strategies. Logging is set up once the arguments are parsed (for {@code --verbose}) and
     * before any command runs, so no library logs before it.
     */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new TunefarmCli())
                .addSubcommand("replay", ReplayCommand.commandLine())
                .addSubcommand("help", new CommandLine.HelpCommand());
        return cli.setExecutionStrategy(parsed -> {
            OperatorLog.configure(verbose(parsed));
            return new CommandLine.RunLast().execute(parsed);
        });
    }

    /** Whether --verbose stands anywhere on the command line, before or after a subcommand. */
    static boolean verbose(CommandLine.ParseResult parsed) {
        for (CommandLine c : parsed.asCommandLineList()) {
            if (c.getParseResult().hasMatchedOption("--verbose")) return true;
        }
        return false;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
