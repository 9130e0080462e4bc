package org.tunefarm.coordinator.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos run, shortened: two coordinator processes and three agent processes; agents are
 * killed with -9 and restarted, and the leading coordinator once, during a sleep sweep. Nothing
 * acknowledged may be lost, nothing recorded twice, and every coordinator must end with every record.
 */
class ChaosRunTest {
    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS) Path dir;

    @Test void killsLoseAndDuplicateNothing() throws Exception {
        ChaosAudit.Outcome o = new ChaosRun(new ChaosRun.Settings(2, 3, 20, 1, 300, 7, 7, dir), System.out).run();
        System.out.println(o);
        assertTrue(o.agentKills() > 0 && o.coordinatorKills() == 1, o.toString());
        assertEquals(8 * 16 * 2, o.candidates(), "a in [0, 7]: every point valid; the default point is the baseline");
        assertEquals(0, o.lost(), o.toString());
        assertEquals(0, o.duplicates(), o.toString());
        assertEquals(0, o.replicaGaps(), "every coordinator holds every record: " + o);
        assertTrue(o.tableMatchesRecords(), o.toString());
        assertTrue(o.optimumFound(), o.toString());
    }
}
