package org.tunefarm.agent.kernels.command;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunefarm.agent.harness.Worker;
import org.tunefarm.kernel.CommandKernelDeclaration;

/**
 * The command kernels of this agent's config and their build cache, which lives as long as the
 * agent so a configuration is compiled once however many leases ask for it.
 */
public final class CommandKernels {
    private final Map<String, CommandKernel> byName = new LinkedHashMap<>();
    private final BuildCache cache = new BuildCache();

    public CommandKernels(List<CommandKernel> kernels) {
        for (CommandKernel k : kernels) byName.put(k.name(), k);
    }

    public boolean has(String op) {
        return byName.containsKey(op);
    }

    /** The spec a command kernel declares; IllegalArgumentException when this agent has none by that name. */
    public org.tunefarm.kernel.KernelSpec spec(String op) {
        CommandKernel k = byName.get(op);
        if (k == null) throw new IllegalArgumentException("no command kernel '" + op + "'");
        return k.spec();
    }

    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /** What the agent advertises when it registers. */
    public List<CommandKernelDeclaration> declarations() {
        return byName.values().stream().map(k -> k.spec().declaration()).toList();
    }

    /** A worker for one batch; it shares this agent's build cache. */
    public Worker worker() {
        return new CommandWorker(Map.copyOf(byName), cache);
    }

    public BuildCache cache() {
        return cache;
    }
}
