package org.tunefarm.protocol;

import org.tunefarm.measure.SensorReading;

/** An agent is alive; {@code leaseId} is the lease it is working on, or null when idle. */
public record Heartbeat(int v, String agentId, String leaseId, SensorReading sensors) {
    public Heartbeat(String agentId, String leaseId, SensorReading sensors) {
        this(Protocol.VERSION, agentId, leaseId, sensors);
    }
}
