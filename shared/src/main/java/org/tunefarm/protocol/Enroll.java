package org.tunefarm.protocol;

/**
 * An agent asks, with the farm token, for a credential of its own. The bridge answers it (it goes
 * to no other address): once an id holds a credential, only that credential registers it.
 */
public record Enroll(int v, String agentId) {
    public Enroll(String agentId) {
        this(Protocol.VERSION, agentId);
    }
}
