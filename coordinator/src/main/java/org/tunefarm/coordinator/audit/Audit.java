package org.tunefarm.coordinator.audit;

import java.util.Map;

/**
 * Where admin actions are written down: sweeps started or cancelled, agents enrolled or revoked.
 * Append-only; an entry is never changed or removed. Callers record after the action took effect.
 */
public interface Audit {

    /**
     * @param action  what was done, e.g. {@code sweep.start}, {@code agent.enroll}, {@code agent.revoke}
     * @param who     who did it and from where
     * @param details what it was done to (ids, names); values are written as JSON
     */
    void record(String action, Who who, Map<String, ?> details);

    /**
     * Who acted.
     *
     * @param credential which credential let them in: {@code admin-token}, {@code open-loopback}
     *                   (no admin token, REST on loopback), {@code farm-token} or {@code agent-credential}
     * @param agentId    the agent that acted, or null for a person at the REST API
     * @param remote     the peer's address
     */
    record Who(String credential, String agentId, String remote) {}

    /** Records nothing: for tests of parts that do not care. */
    Audit NONE = (action, who, details) -> {};
}
