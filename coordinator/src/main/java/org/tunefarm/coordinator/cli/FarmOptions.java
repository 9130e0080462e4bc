package org.tunefarm.coordinator.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * How the CLI reaches a running farm. The options are inherited, so they may stand before or
 * after the subcommand ({@code tunefarm sweep --api URL start FILE} and
 * {@code tunefarm sweep start --api URL FILE} mean the same).
 */
final class FarmOptions {

    @Option(names = "--api", scope = ScopeType.INHERIT, defaultValue = "http://127.0.0.1:8080",
            description = "The farm's REST address (default: ${DEFAULT-VALUE}).")
    String api;

    @Option(names = "--trust", scope = ScopeType.INHERIT, paramLabel = "FILE",
            description = "PEM certificate(s) to trust for an https:// farm (a CA or the coordinator's certificate).")
    Path trust;
}
