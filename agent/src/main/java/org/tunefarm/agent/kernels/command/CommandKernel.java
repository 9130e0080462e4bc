package org.tunefarm.agent.kernels.command;

import java.nio.file.Path;
import java.util.Objects;
import org.tunefarm.kernel.CommandKernelSpec;

/**
 * One command kernel of this agent's config: its declaration (what the farm sees) and how this
 * board builds and runs a candidate (what stays here).
 *
 * @param build          argv that builds a candidate, or null when the program needs no build
 * @param run            argv that runs a candidate and prints its times
 * @param buildTimeoutMs a build taking longer is killed with its process group: TIMEOUT
 * @param runTimeoutMs   the same for a run (the sweep's own timeout applies too, whichever is shorter)
 */
public record CommandKernel(CommandKernelSpec spec, Path workdir, ArgvTemplate build, ArgvTemplate run, OutputFormat output,
                            long buildTimeoutMs, long runTimeoutMs) {
    public CommandKernel {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(workdir, "workdir");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(output, "output");
    }

    public String name() {
        return spec.op();
    }
}
