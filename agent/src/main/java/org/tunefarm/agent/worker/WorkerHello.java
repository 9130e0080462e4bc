package org.tunefarm.agent.worker;

/**
 * The first line a worker writes, once it is ready: JVM start-up is not charged to the first
 * candidate's timeout.
 *
 * @param protocol   {@link #PROTOCOL}; a mismatch means agent and worker come from different builds
 * @param pid        the worker's process id
 * @param vectorBits the width of its vector kernels ({@code VectorWidth}); it must be the agent's,
 *                   which its device class was registered with
 */
public record WorkerHello(int protocol, long pid, int vectorBits) {
    public static final int PROTOCOL = 1;
}
