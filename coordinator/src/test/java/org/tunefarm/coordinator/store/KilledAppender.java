package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;

/**
 * A process that appends to a record log from many threads at once, each thread one record at a
 * time, and prints {@code THREAD INDEX} for each record as soon as its append is answered: what it
 * printed is what it acknowledged. {@link GroupCommitKillTest} kills it with -9 mid-stream.
 */
public final class KilledAppender {
    private KilledAppender() {}

    /**
     * Thread {@code thread}'s record number {@code k}: its own sweep, so each thread's order can be
     * read back; stamped with an implementation, as agents' records are.
     */
    static Measurement record(int thread, long k) {
        return new Measurement("t" + thread, RecordLogTest.KEY, k, Map.of("a", (int) (k % 16), "b", 3, "mode", "fast"), Status.OK,
                Stats.of(new double[] {100 + k, 101 + k, 99 + k}, 8), 0.0, SensorReading.NONE, new SensorReading(45.5, null, null), "",
                "agent-" + thread, "zen4-8c-jdk25", 1000 + k, 1010 + k, (int) k).ofImplementation(1);
    }

    /**
     * Each thread's records are 0, 1, 2, ... in the log's order, none missing or twice, and at
     * least {@code acknowledged[t]} of them.
     */
    static void assertEachThreadInOrder(RecordLog log, int threads, long[] acknowledged) throws IOException {
        long[] next = new long[threads];
        log.replay(m -> {
            int t = Integer.parseInt(m.sweepId().substring(1));
            assertEquals(next[t], m.index(), "thread " + t + "'s records in the order it appended them");
            next[t]++;
        });
        for (int t = 0; t < threads; t++) {
            assertTrue(next[t] >= acknowledged[t], "thread " + t + ": " + acknowledged[t] + " acknowledged, " + next[t] + " in the log");
        }
    }

    /** args: the log's path, the number of threads. Runs until killed. */
    public static void main(String[] args) throws Exception {
        RecordLog log = new RecordLog(Path.of(args[0]));
        int threads = Integer.parseInt(args[1]);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread.ofPlatform().start(() -> {
                try {
                    for (long k = 0; ; k++) {
                        log.append(List.of(record(thread, k)));
                        synchronized (System.out) {
                            System.out.println(thread + " " + k);
                            System.out.flush();
                        }
                    }
                } catch (IOException e) {
                    e.printStackTrace();
                }
            });
        }
    }
}
