package org.tunefarm.protocol;

/**
 * The reply to a heartbeat or a report. For a report, {@code ok} means every measurement in it is
 * durable; {@code recorded} counts the new ones (a repeat is acknowledged but not recorded twice).
 * {@code stop} tells the agent to give up the rest of its lease after this report because the
 * sweep was paused or cancelled (what it reported is kept); optional, so the protocol stays 1.
 */
public record Ack(int v, boolean ok, int recorded, String message, Boolean stop) {

    public Ack {
        if (stop == null) stop = false;
    }

    public static Ack ok(int recorded) {
        return new Ack(Protocol.VERSION, true, recorded, "", false);
    }

    /** Recorded, and the rest of the lease is not wanted any more (the sweep was paused or cancelled). */
    public static Ack stop(int recorded, String why) {
        return new Ack(Protocol.VERSION, true, recorded, why, true);
    }

    public static Ack refused(String message) {
        return new Ack(Protocol.VERSION, false, 0, message, false);
    }

    /** Whether the agent should stop measuring its lease. */
    public boolean stopLease() {
        return Boolean.TRUE.equals(stop);
    }
}
