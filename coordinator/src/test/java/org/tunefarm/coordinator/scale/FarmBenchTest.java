package org.tunefarm.coordinator.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.protocol.Protocol;

/**
 * {@code bench farm --quick} end to end: a real leader and replica serve simulated agents over
 * their own bridge connections; every agent is served, and the figures the bench prints agree
 * with each other and with what the coordinators recorded.
 */
class FarmBenchTest {

    @TempDir Path dir;

    @Test void simulatedAgentsAreAllServedAndTheFiguresAgree() throws Exception {
        FarmRun.Outcome o = new FarmRun(new FarmRun.Settings(List.of(1, 4), 50, 3, 1, 8, true, 0, 1, dir), System.err).run();
        System.out.println("bench farm --quick: " + Protocol.write(o));

        assertTrue(o.everyAgentServed(), o.toString());
        assertEquals(List.of(1, 4), o.steps().stream().map(FarmStep::agents).toList());
        for (FarmStep s : o.steps()) {
            assertEquals(s.agents(), s.agentsServed(), s.toString());
            assertEquals(0, s.errors(), s.firstError());
            assertTrue(s.candidates() > 0 && s.seconds() > 0, s.toString());
            // No agent can beat its candidates' own time: 50 ms each, so at most 20 a second per agent.
            assertTrue(s.throughput() <= s.agents() * 20.0 * 1.05, "throughput above what the agents can measure: " + s);
            assertTrue(s.efficiency() > 0 && s.efficiency() <= 1.5, s.toString());
            assertTrue(s.dispatchP50Ms() > 0 && s.dispatchP99Ms() >= s.dispatchP50Ms(), s.toString());
            assertTrue(s.overheadP50Ms() > 0 && s.ackP50Ms() > 0, s.toString());
            // The leader's log gained a record per acknowledged candidate (closing reports carry none), give or take the window's edges.
            assertTrue(Math.abs(s.recordsPerSecond() - s.throughput()) <= 0.2 * s.throughput() + 2, s.toString());
            assertTrue(s.coordinatorCpuShare() > 0 && s.replicaCpuShare() > 0, "both coordinators worked: " + s);
            assertTrue(s.heapMb() > 0, s.toString());
        }
        assertEquals(1.0, o.steps().get(0).efficiency(), 1e-9, "the 1-agent step is the base");
        assertTrue(o.steps().get(1).throughput() > o.steps().get(0).throughput(), "four agents measure more than one: " + o.steps());
    }

    @Test void realAgentsMeasureASweepToItsEndAndTheirOverheadIsReadFromTheRecords() throws Exception {
        FarmRun.Outcome o = new FarmRun(new FarmRun.Settings(List.of(1), 1, 3, 1, 32, true, 2, 1, dir), System.err).run();
        System.out.println("bench farm --real-agents 2 --quick: " + Protocol.write(o));

        assertTrue(o.everyAgentServed(), o.toString());
        assertTrue(o.steps().isEmpty(), "real agents replace the simulated steps");
        RealAgentsRun.Result r = o.real();
        CandidateOverhead c = r.overhead();
        assertEquals(2, c.agents(), "both agents measured: " + r);
        // 96 points of the narrowed space; the baseline lies outside it and may be measured too.
        assertTrue(c.candidates() >= 96 && c.candidates() <= 97, r.toString());
        assertTrue(c.ownP50Ms() > 0 && c.spanP50Ms() >= c.ownP50Ms(), "a candidate's span holds its samples: " + c);
        assertTrue(c.gapP50Ms() >= 0 && c.gapP90Ms() >= c.gapP50Ms(), c.toString());
        assertTrue(c.overheadP50Ms() > 0, c.toString());
    }

    @Test void badSettingsAreRefusedWithTheOptionNamed() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new FarmRun.Settings(List.of(1, 0), 50, 3, 1, 8, true, 0, 1, dir));
        assertTrue(e.getMessage().contains("--agents"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new FarmRun.Settings(List.of(4), 0, 3, 1, 8, true, 0, 1, dir));
        assertTrue(e.getMessage().contains("--candidate-ms"), e.getMessage());
        assertEquals(List.of(1, 4), new FarmRun.Settings(List.of(4), 50, 3, 1, 8, true, 0, 1, dir).agents(), "the 1-agent base is added");
        assertEquals(org.tunefarm.coordinator.sweep.SweepSpec.AUTO_BATCH, FarmRun.batch("auto"));
        assertEquals(32, FarmRun.batch("32"));
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> FarmRun.batch("many"));
        assertTrue(e.getMessage().contains("--batch"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new FarmRun.Settings(List.of(4), 50, 3, 1, 1001, true, 0, 1, dir));
        assertTrue(e.getMessage().contains("--batch"), e.getMessage());
    }
}
