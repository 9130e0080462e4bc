package org.tunefarm.protocol;

/**
 * The reply to a heartbeat or a report. For a report, {@code ok} means every measurement in it is
 * durable; {@code recorded} counts the new ones (a repeat is acknowledged but not recorded twice).
 */
public record Ack(int v, boolean ok, int recorded, String message) {
    public static Ack ok(int recorded) {
        return new Ack(Protocol.VERSION, true, recorded, "");
    }

    public static Ack refused(String message) {
        return new Ack(Protocol.VERSION, false, 0, message);
    }
}
