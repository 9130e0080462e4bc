package org.tunefarm.agent.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class GarbageTest {

    @Test
    void collectsTheFirstTimeThenOnlyOnceGarbageReachesItsShareOfTheHeap() {
        AtomicLong used = new AtomicLong(500);
        AtomicInteger collections = new AtomicInteger();
        long heap = 16_000;
        Garbage g = new Garbage(collections::get, used::get, () -> heap, () -> {
            collections.incrementAndGet();
            used.set(100); // what stays live
        });
        assertTrue(g.collectIfWorthIt(), "nothing is known of the heap yet");
        assertEquals(1, collections.get());
        used.set(100 + heap / 16); // exactly the share: not yet
        assertFalse(g.collectIfWorthIt());
        used.set(100 + heap / 16 + 1);
        assertTrue(g.collectIfWorthIt());
        assertEquals(2, collections.get());
        assertEquals(100, used.get());
        // A collection the JVM ran by itself leaves less in use than after ours: nothing to do.
        used.set(50);
        assertFalse(g.collectIfWorthIt());
    }

    @Test
    void thisJvmsCollectionsAreCountedAndItsHeapRead() {
        Garbage g = Garbage.ofThisJvm();
        long before = g.collections();
        assertTrue(g.collectIfWorthIt(), "the first call collects");
        assertTrue(g.collections() > before, "System.gc() counts as a collection: " + before + " -> " + g.collections());
        assertFalse(g.collectIfWorthIt(), "right after a collection there is no garbage worth collecting");
    }
}
