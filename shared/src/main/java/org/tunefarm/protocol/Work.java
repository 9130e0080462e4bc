package org.tunefarm.protocol;

/** The answer to {@link Pull}: a lease, or null with how long to wait before asking again. */
public record Work(int v, Lease lease, long retryMs) {
    public static Work of(Lease lease) {
        return new Work(Protocol.VERSION, lease, 0);
    }

    public static Work none(long retryMs) {
        return new Work(Protocol.VERSION, null, retryMs);
    }
}
