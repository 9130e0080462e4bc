package org.tunefarm.coordinator.lease;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.tunefarm.kernel.CommandKernelDeclaration;
import org.tunefarm.kernel.CommandKernelSpec;
import org.tunefarm.kernel.KernelCatalog;
import org.tunefarm.protocol.ProtocolException;
import org.tunefarm.protocol.Register;

/**
 * Checks the command kernels an agent declares when it registers. A name means one kernel across
 * the farm: while a live agent advertises a declaration, another agent declaring something
 * different under that name is refused (not filed apart), because a sweep names its kernel only by
 * that name and its measurements from both boards would land in the same table slot.
 */
final class CommandKernelCheck {
    static final int MAX_COMMAND_KERNELS = 64;

    private CommandKernelCheck() {}

    /**
     * @param others the other agents the coordinator knows
     * @return the agent's families, with its command kernels' names added where it left them out
     * @throws ProtocolException naming the declaration and field at fault
     */
    static List<String> check(Register r, Collection<AgentInfo> others) {
        List<CommandKernelDeclaration> ds = r.commandKernels();
        if (ds.size() > MAX_COMMAND_KERNELS) throw new ProtocolException("commandKernels: at most " + MAX_COMMAND_KERNELS + " per agent");
        Set<String> families = new LinkedHashSet<>(r.families());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < ds.size(); i++) {
            CommandKernelDeclaration d = ds.get(i);
            String f = "commandKernels[" + i + "]";
            if (d == null) throw new ProtocolException(f + ": is null");
            try {
                new CommandKernelSpec(d);
            } catch (IllegalArgumentException e) {
                throw new ProtocolException(f + "." + e.getMessage());
            }
            if (KernelCatalog.isBuiltIn(d.name())) throw new ProtocolException(f + ".name: '" + d.name() + "' is a built-in kernel family");
            if (!seen.add(d.name())) throw new ProtocolException(f + ".name: '" + d.name() + "' is declared twice");
            for (AgentInfo o : others) {
                if (!o.alive() || o.agentId().equals(r.agentId())) continue;
                CommandKernelDeclaration theirs = o.commandKernel(d.name());
                if (theirs != null && !theirs.equals(d)) {
                    throw new ProtocolException(f + ": agent " + o.agentId() + " already advertises command kernel '" + d.name()
                            + "' with a different declaration; the farm keeps the first, so give this one another name or make the two identical");
                }
            }
            families.add(d.name());
        }
        return new ArrayList<>(families);
    }
}
