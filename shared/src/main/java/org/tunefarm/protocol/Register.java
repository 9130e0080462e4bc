package org.tunefarm.protocol;

import java.util.List;
import org.tunefarm.device.DeviceProfile;

/**
 * An agent introduces itself. {@code agentId} is chosen by the agent and kept across its
 * restarts, so a rebooted board carries on as itself.
 *
 * @param families kernel operations this agent can run
 */
public record Register(int v, String agentId, DeviceProfile profile, List<String> families) {
    public Register(String agentId, DeviceProfile profile, List<String> families) {
        this(Protocol.VERSION, agentId, profile, families);
    }
}
