package org.tunefarm.coordinator.scale;

/**
 * What {@code bench farm} measured at one agent count, over the step's window (from when every
 * agent held its first lease, plus a warm-up, for the step's seconds, or until the sweep ran dry).
 *
 * @param candidates          candidates measured and acknowledged in the window
 * @param throughput          candidates per second in the window
 * @param efficiency          throughput / (agents x the 1-agent step's throughput)
 * @param dispatchP50Ms       pull sent to lease received, median, of the pulls answered in the window
 * @param recordsPerSecond    records the leader's log gained per second in the window
 * @param coordinatorCpuShare the leader process's CPU seconds per wall second in the window (1 = one core busy)
 * @param replicaCpuShare     the same for the replica
 * @param agentsCpuShare      the same for this JVM, which holds every simulated agent
 * @param leaderLoopCpuShare  the leader's busiest event loop (the farm verticle's, under load): CPU seconds per wall second
 * @param leaderLoopWaitShare that loop's time runnable but waiting for a core, per wall second (Linux; NaN elsewhere):
 *                            busy plus waiting near 1 means the loop was the limit, or the machine was
 * @param leaderWaitShare     all the leader's threads' time waiting for a core, per wall second
 * @param leaderSyncMs        the leader's record-log sync timer, mean in the window: an append's wait for its group's fsync
 * @param replicaSyncMs       the same on the replica, for the copies (the acknowledgement waits for the leader's, then the replica's)
 * @param heapMb              the leader's live heap after the step (after a full collection)
 * @param overheadP50Ms       per candidate, the agent's time from one candidate's end to the next one's
 *                            start: the farm's own overhead (report and acknowledgement; at lease
 *                            boundaries the closing report and the pull too)
 * @param ackP50Ms            a candidate's report sent to its acknowledgement (durable on both coordinators)
 * @param agentsServed        agents that had at least one candidate acknowledged in the step
 * @param ranDry              the sweep had no more work before the window's end (the window was cut there)
 * @param errors              failed or refused requests of the agents in the step
 */
public record FarmStep(int agents, long candidates, double seconds, double throughput, double efficiency, double dispatchP50Ms,
                       double dispatchP99Ms, double recordsPerSecond, double coordinatorCpuShare, double replicaCpuShare, double agentsCpuShare,
                       double leaderLoopCpuShare, double leaderLoopWaitShare, double leaderWaitShare,
                       double leaderSyncMs, double replicaSyncMs, double heapMb, double overheadP50Ms, double overheadP90Ms, double ackP50Ms, double ackP99Ms, int agentsServed,
                       boolean ranDry, int errors, String firstError) {

    FarmStep withEfficiency(double e) {
        return new FarmStep(agents, candidates, seconds, throughput, e, dispatchP50Ms, dispatchP99Ms, recordsPerSecond, coordinatorCpuShare,
                replicaCpuShare, agentsCpuShare, leaderLoopCpuShare, leaderLoopWaitShare, leaderWaitShare, leaderSyncMs, replicaSyncMs, heapMb, overheadP50Ms, overheadP90Ms, ackP50Ms, ackP99Ms, agentsServed, ranDry, errors, firstError);
    }
}
