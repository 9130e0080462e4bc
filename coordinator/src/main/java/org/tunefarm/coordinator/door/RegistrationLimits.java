package org.tunefarm.coordinator.door;

/**
 * How much the bridge lets strangers hold before they have proved who they are
 * ({@code bridge:} in coordinator.yaml). A connection is "unregistered" from accept until its
 * agent registers; honest agents spend milliseconds there, so the limits are set for hundreds of
 * agents behind one address (a NAT, or loopback in tests) reconnecting at the same moment, and
 * still stop one host from holding thousands of idle sockets or guessing credentials.
 *
 * @param maxUnregisteredPerAddress      unregistered connections from one remote address at once
 * @param maxUnregistered                unregistered connections in total at once
 * @param maxFailedRegistrationsPerMinute failed registrations or enrollments (wrong token or
 *                                       credential, revoked id, taken id) per remote address per
 *                                       minute; past it, that address's new connections are closed
 *                                       until the minute is over
 * @param registerWithinMs               a connection that has not registered this long after
 *                                       connecting is closed
 */
public record RegistrationLimits(int maxUnregisteredPerAddress, int maxUnregistered, int maxFailedRegistrationsPerMinute, long registerWithinMs) {

    public RegistrationLimits {
        if (maxUnregisteredPerAddress < 1 || maxUnregisteredPerAddress > 1_000_000) throw new IllegalArgumentException("bridge.maxUnregisteredPerAddress: must be in [1, 1000000], got " + maxUnregisteredPerAddress);
        if (maxUnregistered < maxUnregisteredPerAddress || maxUnregistered > 1_000_000) throw new IllegalArgumentException("bridge.maxUnregistered: must be in [maxUnregisteredPerAddress, 1000000], got " + maxUnregistered);
        if (maxFailedRegistrationsPerMinute < 1 || maxFailedRegistrationsPerMinute > 1_000_000) throw new IllegalArgumentException("bridge.maxFailedRegistrationsPerMinute: must be in [1, 1000000], got " + maxFailedRegistrationsPerMinute);
        if (registerWithinMs < 100 || registerWithinMs > 600_000) throw new IllegalArgumentException("bridge.registerWithinMs: must be in [100, 600000], got " + registerWithinMs);
    }

    /** 512 per address fits a few hundred boards behind one NAT coming back together after an outage. */
    public static RegistrationLimits defaults() {
        return new RegistrationLimits(512, 4096, 60, 20_000);
    }
}
