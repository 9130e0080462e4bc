package org.tunefarm.coordinator.lease;

import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;
import org.tunefarm.coordinator.sweep.SweepRun;

/**
 * The log lines an operator reads: one per agent that joins or leaves and per sweep that starts or
 * ends, however often the underlying state is republished. The leader's view only: a new leader
 * announces what it finds once.
 */
final class FarmEvents {
    private static final Logger LOG = Logger.getLogger(FarmEvents.class.getName());

    private final Map<String, Boolean> agentsAlive = new HashMap<>();
    private final Map<String, String> sweepStates = new HashMap<>();

    void agent(AgentInfo a) {
        Boolean was = agentsAlive.put(a.agentId(), a.alive());
        if (was != null && was == a.alive()) return;
        if (a.alive()) {
            LOG.info(() -> "agent " + a.agentId() + " joined: device class " + a.deviceClass() + ", version " + a.version());
        } else if (was != null) {
            LOG.info(() -> "agent " + a.agentId() + " left: no heartbeat for " + Dispatcher.MISSED_HEARTBEATS + " periods");
        }
    }

    /** An agent long dead and forgotten: if it returns, it is announced as joining. */
    void forget(String agentId) {
        if (agentsAlive.remove(agentId) != null) LOG.info(() -> "agent " + agentId + " forgotten: dead for " + Dispatcher.FORGET_DEAD_MS / 3_600_000 + " h");
    }

    void sweep(SweepRun.Status s) {
        String was = sweepStates.put(s.id(), s.state());
        if (s.state().equals(was)) return;
        String what = switch (s.state()) {
            case "waiting" -> "accepted, waiting for an agent of a targeted class";
            case "running" -> "paused".equals(was) ? "resumed" : "started";
            default -> s.state();
        };
        // A restored sweep that is already over is not news.
        if (was == null && (s.state().equals("done") || s.state().equals("cancelled"))) return;
        LOG.info(() -> "sweep " + s.id() + " (" + s.name() + ", " + s.kernel() + "): " + what);
    }
}
