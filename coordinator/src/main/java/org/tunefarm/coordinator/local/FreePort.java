package org.tunefarm.coordinator.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A port free right now, for farms started on one machine. Between the pick and the server's bind
 * another socket can take it: the OS hands its own free ports ({@code new ServerSocket(0)}) from
 * the ephemeral range that every outgoing connection also draws from, so a busy machine took them
 * back. Ports are picked at random below that range (Linux's starts at 32768), never twice by one
 * JVM, and checked on the wildcard address, which conflicts with any bind.
 */
public final class FreePort {
    private static final int LOW = 20_000;
    private static final int HIGH = 32_768;
    private static final Set<Integer> HANDED = ConcurrentHashMap.newKeySet();

    private FreePort() {}

    public static int pick() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = LOW + random.nextInt(HIGH - LOW);
            if (HANDED.add(port) && bindable(port)) return port;
        }
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort(); // every port of the low range tried: the OS's choice
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port", e);
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
