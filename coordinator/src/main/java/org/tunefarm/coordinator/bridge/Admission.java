package org.tunefarm.coordinator.bridge;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.tunefarm.coordinator.door.RegistrationLimits;

/**
 * Holds the bridge to its {@link RegistrationLimits}: counts connections that have not registered
 * yet, per remote address and in total, and failed registrations per address in the current
 * minute. Thread-safe: connections are accepted on several event loops.
 */
final class Admission {
    private final RegistrationLimits limits;
    private final LongSupplier clock;
    private final Map<String, AtomicInteger> unregistered = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();
    private final Map<String, Failures> failures = new ConcurrentHashMap<>();

    /** Failed registrations of one address in one minute. */
    private record Failures(long minute, int count) {}

    Admission(RegistrationLimits limits, LongSupplier clock) {
        this.limits = limits;
        this.clock = clock;
    }

    /**
     * A new connection from {@code address}: admitted as unregistered, or refused with the reason.
     *
     * @return null when admitted (then {@link #settled} must follow once), else
     *         {@code [kind, message]}
     */
    String[] admit(String address) {
        if (failedTooOften(address)) {
            return new String[] {"too-many-failures", "over " + limits.maxFailedRegistrationsPerMinute() + " failed registrations from " + address + " this minute"};
        }
        if (total.incrementAndGet() > limits.maxUnregistered()) {
            total.decrementAndGet();
            return new String[] {"too-many-unregistered", "over " + limits.maxUnregistered() + " connections have not registered yet"};
        }
        int[] fromAddress = new int[1];
        unregistered.compute(address, (a, n) -> {
            AtomicInteger c = n == null ? new AtomicInteger() : n;
            fromAddress[0] = c.incrementAndGet();
            return c;
        });
        if (fromAddress[0] > limits.maxUnregisteredPerAddress()) {
            settled(address);
            return new String[] {"too-many-unregistered-from-address", "over " + limits.maxUnregisteredPerAddress() + " connections from " + address + " have not registered yet"};
        }
        return null;
    }

    /** An admitted connection registered or closed: it no longer counts as unregistered. Once per admission. */
    void settled(String address) {
        total.decrementAndGet();
        unregistered.computeIfPresent(address, (a, n) -> n.decrementAndGet() <= 0 ? null : n);
    }

    /** A registration or enrollment from {@code address} was refused. */
    void failed(String address) {
        long minute = clock.getAsLong() / 60_000;
        failures.compute(address, (a, f) -> f == null || f.minute() != minute ? new Failures(minute, 1) : new Failures(minute, f.count() + 1));
        if (failures.size() > 10_000) failures.values().removeIf(f -> f.minute() != minute); // forget past minutes
    }

    boolean failedTooOften(String address) {
        Failures f = failures.get(address);
        return f != null && f.minute() == clock.getAsLong() / 60_000 && f.count() >= limits.maxFailedRegistrationsPerMinute();
    }

    int unregistered() {
        return total.get();
    }

    RegistrationLimits limits() {
        return limits;
    }
}
