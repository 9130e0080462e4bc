package org.tunefarm.kernel;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kernels a farm can tune right now: the built-in families of {@link KernelSpecs}, then the
 * command kernels that registered agents declared. A built-in name always wins, so an agent
 * cannot redefine {@code gemm}.
 */
public final class KernelCatalog {
    private final Map<String, CommandKernelSpec> commands;

    private KernelCatalog(Map<String, CommandKernelSpec> commands) {
        this.commands = commands;
    }

    /** Built-in families only. */
    public static KernelCatalog builtIn() {
        return new KernelCatalog(Map.of());
    }

    /**
     * Built-ins plus the given declarations; for a name declared more than once the first wins,
     * and declarations that do not check out or shadow a built-in are left out.
     */
    public static KernelCatalog of(Collection<CommandKernelDeclaration> declarations) {
        Map<String, CommandKernelSpec> m = new LinkedHashMap<>();
        for (CommandKernelDeclaration d : declarations) {
            if (d == null || d.name() == null || isBuiltIn(d.name()) || m.containsKey(d.name())) continue;
            try {
                m.put(d.name(), new CommandKernelSpec(d));
            } catch (IllegalArgumentException invalid) {
                // the coordinator refused it at registration; nothing to offer
            }
        }
        return new KernelCatalog(m);
    }

    public static boolean isBuiltIn(String op) {
        return KernelSpecs.all().stream().anyMatch(s -> s.op().equals(op));
    }

    public Optional<KernelSpec> find(String op) {
        for (KernelSpec s : KernelSpecs.all()) if (s.op().equals(op)) return Optional.of(s);
        return Optional.ofNullable(commands.get(op));
    }

    /** The command kernel of that name, when one is declared. */
    public Optional<CommandKernelSpec> command(String op) {
        return Optional.ofNullable(commands.get(op));
    }

    /** @throws IllegalArgumentException naming the known operations */
    public KernelSpec get(String op) {
        return find(op).orElseThrow(() -> new IllegalArgumentException("kernel: unknown operation '" + op + "' (known: " + ops() + ")"));
    }

    /** Built-in operations, then declared ones. */
    public List<String> ops() {
        List<String> out = new ArrayList<>();
        for (KernelSpec s : KernelSpecs.all()) out.add(s.op());
        out.addAll(commands.keySet());
        return out;
    }
}
