package org.tunefarm.log;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.logging.LogManager;

/**
 * How tunefarm's processes log: one line per event on standard error ({@code time level source:
 * message}), our own events at INFO, and the libraries (Hazelcast, Vert.x, Netty) at WARNING so
 * their banner and start-up chatter stay out of an operator's way unless {@code --verbose}.
 * A {@code java.util.logging.config.file} given on the command line wins over all of this.
 */
public final class OperatorLog {

    private OperatorLog() {}

    public static void configure(boolean verbose) {
        if (System.getProperty("java.util.logging.config.file") != null) return;
        String libraries = verbose ? "INFO" : "WARNING";
        String config = String.join("\n",
                "handlers=java.util.logging.ConsoleHandler",
                ".level=INFO",
                "java.util.logging.ConsoleHandler.level=ALL",
                "java.util.logging.ConsoleHandler.formatter=" + LogLine.class.getName(),
                "org.tunefarm.level=" + (verbose ? "FINE" : "INFO"),
                "com.hazelcast.level=" + libraries,
                // Said once at start whatever the config: we use no CP data structure, so it is not news.
                "com.hazelcast.cp.CPSubsystem.level=" + (verbose ? "INFO" : "SEVERE"),
                "io.vertx.level=" + libraries,
                "io.netty.level=" + libraries,
                "oshi.level=" + libraries,
                "");
        try {
            LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(config.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new IllegalStateException("cannot configure logging", e);
        }
    }
}
