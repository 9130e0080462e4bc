package org.tunefarm.coordinator.sweep;

/**
 * An operator's change to a running sweep, kept in the sweep log beside the sweep it changes so
 * that a restart or a new leader applies the same changes in the same order.
 *
 * @param at       epoch ms on the leader that accepted it; changes are applied in this order
 * @param priority the new priority, for {@link Action#PRIORITY}; ignored otherwise
 */
public record SweepControl(String sweepId, long at, Action action, int priority) {

    /** What the operator asked. */
    public enum Action {
        /** No new leases; leases out are stopped at their next report and their rest requeued. */
        PAUSE,
        /** Lease again. */
        RESUME,
        /** For good: no new leases; what was already measured is kept. */
        CANCEL,
        /** Reorder among the sweeps that share agents: higher leases first. */
        PRIORITY
    }

    /** The highest and lowest priority a sweep may have. */
    public static final int MAX_PRIORITY = 1000;

    /** A change that cannot be made in the sweep's state (HTTP 409). */
    public static final class Refused extends RuntimeException {
        public Refused(String message) {
            super(message);
        }
    }
}
