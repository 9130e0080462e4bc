package org.tunefarm.agent.sensors;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Raspberry Pi's throttle bits from its firmware: {@code vcgencmd get_throttled} prints
 * {@code throttled=0x50005} (bit 0 under-voltage, 1 frequency capped, 2 throttled, 3 soft
 * temperature limit, now; bits 16-19 the same since boot). A board without the command is not a
 * Pi, and is not asked again. The command talks to the firmware through {@code /dev/vchiq}, which
 * the {@code video} group may open: without it, it fails, and the agent says so once.
 */
final class PiThrottle {
    private static final Logger LOG = Logger.getLogger(PiThrottle.class.getName());
    private static final Pattern REPLY = Pattern.compile("throttled=(0x[0-9a-fA-F]+|[0-9]+)");
    /** A firmware call answers in milliseconds; a reading never waits longer than this for one. */
    static final Duration TIMEOUT = Duration.ofMillis(500);

    private final String command;
    private final CommandRunner runner;
    private boolean notAPi;
    private boolean toldFailure;

    /** @param command the {@code vcgencmd} to run; null or blank never asks */
    PiThrottle(String command, CommandRunner runner) {
        this.command = command == null || command.isBlank() ? null : command;
        this.runner = runner;
    }

    /** The bits, or null when this is not a Pi or the firmware did not answer in time. */
    synchronized Integer bits() {
        if (command == null || notAPi) return null;
        CommandRunner.Output out;
        try {
            out = runner.run(List.of(command, "get_throttled"), TIMEOUT);
        } catch (IOException e) {
            notAPi = true; // no such command: not a Pi
            return null;
        }
        if (out == null) return null;
        Matcher m = REPLY.matcher(out.text());
        if (out.exitCode() == 0 && m.find()) return (int) Long.decode(m.group(1)).longValue();
        if (!toldFailure) {
            toldFailure = true;
            LOG.warning(() -> "throttle bits: '" + command + " get_throttled' answered " + out.exitCode() + ": " + out.text().strip()
                    + " (the agent's user needs the video group for /dev/vchiq: usermod -aG video USER)");
        }
        return null;
    }
}
