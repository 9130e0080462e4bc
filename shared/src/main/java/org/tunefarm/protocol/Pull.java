package org.tunefarm.protocol;

/** An idle agent asks for work. */
public record Pull(int v, String agentId) {
    public Pull(String agentId) {
        this(Protocol.VERSION, agentId);
    }
}
