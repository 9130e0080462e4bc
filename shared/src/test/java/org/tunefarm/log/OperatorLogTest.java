package org.tunefarm.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Our events are logged, the libraries' chatter is not unless --verbose, one line each. */
class OperatorLogTest {

    @AfterEach void reset() {
        OperatorLog.configure(false);
    }

    @Test void librariesSayOnlyWarningsUnlessVerbose() {
        OperatorLog.configure(false);
        assertTrue(Logger.getLogger("org.tunefarm.coordinator.lease.FarmEvents").isLoggable(Level.INFO));
        assertFalse(Logger.getLogger("com.hazelcast.system.logo").isLoggable(Level.INFO), "no banner");
        assertTrue(Logger.getLogger("com.hazelcast.cluster").isLoggable(Level.WARNING), "a real fault still shows");
        assertFalse(Logger.getLogger("com.hazelcast.cp.CPSubsystem").isLoggable(Level.WARNING), "the CP notice we have no use for");
        assertFalse(Logger.getLogger("io.vertx.core.impl.BlockedThreadChecker").isLoggable(Level.INFO));
        assertTrue(Logger.getLogger("io.vertx.core.impl.BlockedThreadChecker").isLoggable(Level.WARNING));

        OperatorLog.configure(true);
        assertTrue(Logger.getLogger("com.hazelcast.system.logo").isLoggable(Level.INFO));
        assertTrue(Logger.getLogger("io.netty.util.internal.PlatformDependent").isLoggable(Level.INFO));
    }

    @Test void aRecordIsOneLineNamingLevelAndSource() {
        LogRecord r = new LogRecord(Level.INFO, "agent {0} joined");
        r.setParameters(new Object[] {"board-1"});
        r.setLoggerName("org.tunefarm.coordinator.lease.FarmEvents");
        String line = new LogLine().format(r);
        assertTrue(line.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d INFO FarmEvents: agent board-1 joined\\n"), line);
        assertEquals(1, line.lines().count());
    }
}
