package org.tunefarm.protocol;

/**
 * The answer to {@link Enroll}: the agent's credential, shown this once (the farm keeps only its
 * hash). The agent keeps it in a file only its user can read and sends it, in place of the farm
 * token, on every frame of every later connection.
 */
public record Enrolled(int v, String agentId, String credential) {
    public Enrolled(String agentId, String credential) {
        this(Protocol.VERSION, agentId, credential);
    }

    @Override public String toString() {
        return "Enrolled[agentId=" + agentId + "]"; // never the credential, in case it is logged
    }
}
