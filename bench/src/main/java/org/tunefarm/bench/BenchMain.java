package org.tunefarm.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code tunefarm bench ...}: benchmarks of the farm itself, in their own jar so the agent's
 * stays small. Each prints human-readable lines and, last, one JSON line.
 */
@Command(name = "tunefarm bench", mixinStandardHelpOptions = true, version = "tunefarm 0.1.0",
        description = "Benchmarks: measurement fidelity, kernel speed and table lookups.",
        subcommands = {FidelityCommand.class, KernelsCommand.class, LookupCommand.class, CommandLine.HelpCommand.class})
public final class BenchMain implements Runnable {

    @Override public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }
}
