package org.tunefarm.protocol;

import java.util.List;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.CommandKernelDeclaration;

/**
 * An agent introduces itself. {@code agentId} is chosen by the agent and kept across its
 * restarts, so a rebooted board carries on as itself.
 *
 * @param families       kernel operations this agent can run, command kernels included
 * @param commandKernels the declarations of the command kernels in its config; optional (agents
 *                       before command kernels omit it), so the protocol version stays 1
 * @param version        the build version of the agent's jar, shown to operators of a mixed fleet;
 *                       optional (older agents omit it: {@value #UNKNOWN_VERSION})
 */
public record Register(int v, String agentId, DeviceProfile profile, List<String> families,
                       List<CommandKernelDeclaration> commandKernels, String version) {

    /** What an agent that does not say its version is shown as. */
    public static final String UNKNOWN_VERSION = "unknown";

    public Register {
        commandKernels = commandKernels == null ? List.of() : List.copyOf(commandKernels);
        if (version == null || version.isEmpty()) version = UNKNOWN_VERSION;
        if (version.length() > 64 || !version.matches("[A-Za-z0-9._+-]+")) {
            throw new IllegalArgumentException("version: at most 64 characters of [A-Za-z0-9._+-]");
        }
        if (families != null) {
            if (families.size() > 64 || families.stream().anyMatch(f -> f == null || f.isEmpty() || f.length() > 64)) {
                throw new IllegalArgumentException("families: at most 64 operation names of 1 to 64 characters");
            }
            families = List.copyOf(families);
        }
    }

    public Register(String agentId, DeviceProfile profile, List<String> families) {
        this(Protocol.VERSION, agentId, profile, families, List.of(), BuildVersion.current());
    }

    public Register(String agentId, DeviceProfile profile, List<String> families, List<CommandKernelDeclaration> commandKernels) {
        this(Protocol.VERSION, agentId, profile, families, commandKernels, BuildVersion.current());
    }
}
