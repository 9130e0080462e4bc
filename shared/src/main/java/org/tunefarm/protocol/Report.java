package org.tunefarm.protocol;

import java.util.List;
import org.tunefarm.measure.Measurement;

/** Measurements taken under a lease; {@code done} says the agent has finished the lease. */
public record Report(int v, String agentId, String leaseId, List<Measurement> measurements, boolean done) {
    public Report(String agentId, String leaseId, List<Measurement> measurements, boolean done) {
        this(Protocol.VERSION, agentId, leaseId, measurements, done);
    }
}
