package org.tunefarm.coordinator.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A loopback port free right now, for farms started on one machine. */
public final class FreePort {
    private FreePort() {}

    public static int pick() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port", e);
        }
    }
}
