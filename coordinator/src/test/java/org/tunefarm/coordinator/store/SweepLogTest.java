package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunefarm.coordinator.sweep.SweepControl;
import org.tunefarm.coordinator.sweep.SweepControl.Action;
import org.tunefarm.coordinator.sweep.SweepSpecReader;

/** Sweeps and the operators' changes to them share one file and come back apart, in order, once each. */
class SweepLogTest {
    @TempDir Path dir;

    @Test void changesAreKeptBesideTheirSweepOnceEachAndInTheLeadersOrder() throws Exception {
        SweepLog log = new SweepLog(dir.resolve("sweeps.jsonl"));
        var spec = SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\npriority: 3\n");
        log.append(new SweepLog.Entry("s1", 10, spec));
        SweepControl pause = new SweepControl("s1", 20, Action.PAUSE, 0);
        SweepControl resume = new SweepControl("s1", 30, Action.RESUME, 0);
        SweepControl priority = new SweepControl("s1", 25, Action.PRIORITY, 9);
        log.appendIfAbsent(pause);
        log.appendIfAbsent(resume);
        log.appendIfAbsent(pause); // a copy arriving twice
        log.appendIfAbsent(priority); // copied late from another coordinator: ordered by its time
        Files.writeString(dir.resolve("sweeps.jsonl"), "{\"control\": {\"sweep", StandardOpenOption.APPEND); // torn last line

        SweepLog again = new SweepLog(dir.resolve("sweeps.jsonl"));
        assertEquals(1, again.read().size());
        assertEquals(3, again.read().get(0).spec().priority());
        assertEquals(List.of(pause, priority, resume), again.controls());
    }
}
