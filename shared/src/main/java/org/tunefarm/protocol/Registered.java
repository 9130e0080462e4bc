package org.tunefarm.protocol;

/**
 * The coordinator's answer to {@link Register}.
 *
 * @param deviceClass the class the coordinator filed the agent under
 * @param heartbeatMs how often the agent must send a heartbeat; missing three marks it dead
 */
public record Registered(int v, String agentId, String deviceClass, long heartbeatMs) {
    public Registered(String agentId, String deviceClass, long heartbeatMs) {
        this(Protocol.VERSION, agentId, deviceClass, heartbeatMs);
    }
}
