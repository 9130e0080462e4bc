package org.tunefarm.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads of another process append to one record log through its group commit; the process
 * is killed with -9 in mid-stream. Reopened, the log holds every record that was acknowledged,
 * each thread's in the order it appended them, none twice: what a group wrote but did not answer
 * may be there too, or cut as a torn last line.
 */
class GroupCommitKillTest {
    static final int THREADS = 16;
    /** Acknowledgements to see before the kill: enough that many groups have been committed. */
    static final int ACKS_BEFORE_KILL = 3000;

    @TempDir Path dir;

    @Test @Timeout(120)
    void everyAcknowledgedRecordSurvivesKillNineInEachThreadsOrder() throws Exception {
        Path file = dir.resolve("records.jsonl");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"), KilledAppender.class.getName(),
                file.toString(), String.valueOf(THREADS))).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long[] acknowledged = new long[THREADS];
        int acks = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                String[] f = line.split(" ");
                if (f.length != 2 || f[1].isEmpty()) continue; // a line the kill cut short acknowledged nothing
                int t = Integer.parseInt(f[0]);
                acknowledged[t] = Math.max(acknowledged[t], Long.parseLong(f[1]) + 1);
                // SIGKILL while threads are mid-append. Through the handle: Process.destroyForcibly
                // would also close this end of the pipe, losing what the appender printed before dying.
                if (++acks == ACKS_BEFORE_KILL) p.toHandle().destroyForcibly();
            }
        }
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertTrue(acks >= ACKS_BEFORE_KILL, "the appender acknowledged only " + acks + " records before it ended");
        try (RecordLog log = new RecordLog(file)) {
            KilledAppender.assertEachThreadInOrder(log, THREADS, acknowledged);
        }
    }
}
