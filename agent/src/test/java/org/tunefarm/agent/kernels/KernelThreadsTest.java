package org.tunefarm.agent.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class KernelThreadsTest {

    @Test
    void theSecondFieldOfSchedstatIsTheRunDelay() {
        byte[] line = "123456 7890 42\n".getBytes(StandardCharsets.US_ASCII);
        assertEquals(7890, KernelThreads.secondField(line, line.length));
        byte[] one = "123456\n".getBytes(StandardCharsets.US_ASCII);
        assertEquals(-1, KernelThreads.secondField(one, one.length));
    }

    /**
     * The files stay open between readings, so each reading must be the kernel's figure now, not
     * the one the file held when opened: a registered thread that competes with more busy threads
     * than there are cores waits for a CPU, and its run delay grows.
     */
    @Test
    void aRegisteredThreadThatWaitsForACpuShowsItsRunDelayGrow() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/schedstat")), "Linux schedstat");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong before = new AtomicLong();
        AtomicLong after = new AtomicLong();
        CountDownLatch registered = new CountDownLatch(1);
        Thread kernel = new Thread(() -> {
            KernelThreads.register();
            before.set(KernelThreads.runDelayNanos());
            registered.countDown();
            long end = System.nanoTime() + 400_000_000L;
            long x = 0;
            while (System.nanoTime() < end) x += x * 31 + 7;
            after.set(KernelThreads.runDelayNanos() + (x == 42 ? 1 : 0));
        }, "registered-kernel");
        List<Thread> neighbours = new ArrayList<>();
        int cores = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < 2 * cores; i++) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (!stop.get()) x += x * 31 + 7;
                if (x == 42) System.out.print("");
            }, "neighbour-" + i);
            t.setDaemon(true);
            neighbours.add(t);
        }
        kernel.start();
        registered.await();
        neighbours.forEach(Thread::start);
        kernel.join();
        stop.set(true);
        for (Thread t : neighbours) t.join();
        assertTrue(before.get() >= 0, "the registered thread's run delay is read");
        // With twice as many busy neighbours as cores, the kernel's thread waits most of its 400 ms.
        assertTrue(after.get() - before.get() > 50_000_000L,
                "run delay grew by " + (after.get() - before.get()) + " ns while competing for a CPU");
    }

    @Test
    void aThreadThatEndedLeavesTheRegistry() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/schedstat")), "Linux schedstat");
        int before = KernelThreads.registered();
        Thread t = new Thread(KernelThreads::register);
        t.start();
        t.join();
        assertEquals(before, KernelThreads.registered());
        CountDownLatch registered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread alive = new Thread(() -> {
            KernelThreads.register();
            KernelThreads.register(); // again: still one entry
            registered.countDown();
            try {
                release.await();
            } catch (InterruptedException ignored) {
                // ends
            }
        });
        alive.start();
        registered.await();
        assertEquals(before + 1, KernelThreads.registered());
        release.countDown();
        alive.join();
        assertEquals(before, KernelThreads.registered());
    }
}
