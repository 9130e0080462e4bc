package org.tunefarm.coordinator.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.coordinator.sweep.SweepSpecReader;

class LeaseSizerTest {
    private static final SweepSpec AUTO = SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\nleaseSeconds: 10\n");

    @Test
    void aLeaseLastsAboutLeaseSecondsWhateverACandidateCostsOnTheBoard() {
        LeaseSizer sizer = new LeaseSizer();
        assertEquals(LeaseSizer.FIRST, sizer.size("phone", "s", "k", AUTO), "nothing known yet");
        sizer.finished("phone", "s", "k", 8, 16_000); // 2 s a candidate on the phone
        sizer.finished("server", "s", "k", 8, 80); // 10 ms on the server
        assertEquals(5, sizer.size("phone", "s", "k", AUTO));
        assertEquals(1000, sizer.size("server", "s", "k", AUTO), "10 s / 10 ms, within the most a lease may hold");
        sizer.finished("server", "s", "k", 1000, 40_000); // the big lease ran slower: 40 ms; averaged with 10 ms
        assertEquals(400, sizer.size("server", "s", "k", AUTO));
        assertEquals(LeaseSizer.FIRST, sizer.size("server", "s", "other shape", AUTO), "each shape is learned apart");
        sizer.finished("phone", "s", "k", 1, 3_600_000); // an hour for one candidate
        assertEquals(1, sizer.size("phone", "s", "k", AUTO), "never fewer than one");
    }

    @Test
    void aFixedBatchSizeIsKept() {
        SweepSpec fixed = SweepSpecReader.read("kernel: sleep\nshapes: [{unitUs: 100}]\nbatchSize: 12\n");
        LeaseSizer sizer = new LeaseSizer();
        sizer.finished("a", "s", "k", 12, 12);
        assertEquals(12, sizer.size("a", "s", "k", fixed));
    }

    @Test
    void whatItRemembersIsBounded() {
        LeaseSizer sizer = new LeaseSizer();
        for (int i = 0; i < LeaseSizer.KEPT + 100; i++) sizer.finished("agent-" + i, "s", "k", 1, 10);
        assertEquals(LeaseSizer.KEPT, sizer.remembered());
        assertEquals(LeaseSizer.FIRST, sizer.size("agent-0", "s", "k", AUTO), "the least recently used was forgotten");
        assertEquals(1000, sizer.size("agent-" + (LeaseSizer.KEPT + 99), "s", "k", AUTO));
    }
}
