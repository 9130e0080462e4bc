package org.tunefarm.coordinator.door;

/**
 * Who may come in and how: the settings of the bridge and REST doors beyond the two tokens that
 * {@link org.tunefarm.coordinator.CoordinatorConfig} already holds.
 *
 * @param readToken      required for REST reads when non-empty; empty leaves reads open
 * @param tls            certificate and key for the bridge and REST; null means plain TCP
 * @param maxFrameBytes  a bridge frame declaring more than this closes the connection
 * @param frameTimeoutMs a bridge frame must arrive whole within this time of its first byte
 * @param registration   what the bridge lets connections that have not registered yet hold
 */
public record DoorConfig(String readToken, TlsFiles tls, int maxFrameBytes, long frameTimeoutMs, RegistrationLimits registration) {

    /** Agents send a register (a device profile, a few KB) or one measurement at a time: 1 MiB is generous. */
    public static final int MAX_FRAME_BYTES = 1 << 20;
    /** A phone on a poor link still sends a few KB in seconds; 1 MiB at 300 kbit/s takes about 30 s. */
    public static final long FRAME_TIMEOUT_MS = 30_000;

    public DoorConfig {
        readToken = readToken == null ? "" : readToken;
        registration = registration == null ? RegistrationLimits.defaults() : registration;
        if (maxFrameBytes < 1024 || maxFrameBytes > 64 << 20) throw new IllegalArgumentException("bridge.maxFrameBytes: must be in [1024, 67108864], got " + maxFrameBytes);
        if (frameTimeoutMs < 10 || frameTimeoutMs > 600_000) throw new IllegalArgumentException("bridge.frameTimeoutMs: must be in [10, 600000], got " + frameTimeoutMs);
    }

    /** With the default registration limits. */
    public DoorConfig(String readToken, TlsFiles tls, int maxFrameBytes, long frameTimeoutMs) {
        this(readToken, tls, maxFrameBytes, frameTimeoutMs, null);
    }

    public static DoorConfig defaults() {
        return new DoorConfig("", null, MAX_FRAME_BYTES, FRAME_TIMEOUT_MS);
    }

    public DoorConfig withReadToken(String token) {
        return new DoorConfig(token, tls, maxFrameBytes, frameTimeoutMs, registration);
    }

    public DoorConfig withTls(TlsFiles files) {
        return new DoorConfig(readToken, files, maxFrameBytes, frameTimeoutMs, registration);
    }

    public DoorConfig withFrameLimits(int maxBytes, long timeoutMs) {
        return new DoorConfig(readToken, tls, maxBytes, timeoutMs, registration);
    }

    public DoorConfig withRegistrationLimits(RegistrationLimits limits) {
        return new DoorConfig(readToken, tls, maxFrameBytes, frameTimeoutMs, limits);
    }
}
