package org.tunefarm.coordinator.lease;

import java.util.List;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.measure.SensorReading;

/**
 * What the coordinator knows of a registered agent, as REST shows it.
 *
 * @param lastSeen epoch ms of the last frame from it
 * @param leaseId  lease it holds, or null
 * @param alive    false once it missed its heartbeats
 */
public record AgentInfo(String agentId, String deviceClass, DeviceProfile profile, List<String> families,
                        long registeredAt, long lastSeen, String leaseId, SensorReading sensors, boolean alive, int measured) {

    AgentInfo seen(long now, String lease, SensorReading s) {
        return new AgentInfo(agentId, deviceClass, profile, families, registeredAt, now, lease, s != null ? s : sensors, true, measured);
    }

    AgentInfo withLease(String lease) {
        return new AgentInfo(agentId, deviceClass, profile, families, registeredAt, lastSeen, lease, sensors, alive, measured);
    }

    AgentInfo dead() {
        return new AgentInfo(agentId, deviceClass, profile, families, registeredAt, lastSeen, null, sensors, false, measured);
    }

    AgentInfo counted(int n) {
        return new AgentInfo(agentId, deviceClass, profile, families, registeredAt, lastSeen, leaseId, sensors, alive, measured + n);
    }
}
