package org.tunefarm.coordinator.lease;

import java.util.List;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.CommandKernelDeclaration;
import org.tunefarm.measure.SensorReading;

/**
 * What the coordinator knows of a registered agent, as REST shows it.
 *
 * @param families       every operation it runs, its command kernels included
 * @param lastSeen       epoch ms of the last frame from it
 * @param leaseId        lease it holds, or null
 * @param alive          false once it missed its heartbeats
 * @param commandKernels the command kernels it declared; REST builds the sweepable catalog from these
 * @param version        the build version of its jar, as it said at registration
 */
public record AgentInfo(String agentId, String deviceClass, DeviceProfile profile, List<String> families,
                        long registeredAt, long lastSeen, String leaseId, SensorReading sensors, boolean alive, int measured,
                        List<CommandKernelDeclaration> commandKernels, String version) {

    public AgentInfo {
        commandKernels = commandKernels == null ? List.of() : List.copyOf(commandKernels);
        if (version == null) version = org.tunefarm.protocol.Register.UNKNOWN_VERSION;
    }

    AgentInfo seen(long now, String lease, SensorReading s) {
        return new AgentInfo(agentId, deviceClass, profile, families, registeredAt, now, lease, s != null ? s : sensors, true, measured, commandKernels, version);
    }

    AgentInfo withLease(String lease) {
        return new AgentInfo(agentId, deviceClass, profile, families, registeredAt, lastSeen, lease, sensors, alive, measured, commandKernels, version);
    }

    AgentInfo dead() {
        return new AgentInfo(agentId, deviceClass, profile, families, registeredAt, lastSeen, null, sensors, false, measured, commandKernels, version);
    }

    AgentInfo counted(int n) {
        return new AgentInfo(agentId, deviceClass, profile, families, registeredAt, lastSeen, leaseId, sensors, alive, measured + n, commandKernels, version);
    }

    /** Its declaration of that command kernel, or null. */
    public CommandKernelDeclaration commandKernel(String name) {
        for (CommandKernelDeclaration d : commandKernels) if (d.name().equals(name)) return d;
        return null;
    }
}
