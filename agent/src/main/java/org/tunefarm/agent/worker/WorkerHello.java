package org.tunefarm.agent.worker;

/**
 * The first line a worker writes, once it is ready: JVM start-up is not charged to the first
 * candidate's timeout.
 *
 * @param protocol {@link #PROTOCOL}; a mismatch means agent and worker come from different builds
 * @param pid      the worker's process id
 */
public record WorkerHello(int protocol, long pid) {
    public static final int PROTOCOL = 1;
}
