package org.tunefarm.coordinator.scale;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.tunefarm.coordinator.lease.Dispatcher;
import org.tunefarm.coordinator.store.SweepLog;
import org.tunefarm.coordinator.sweep.Search;
import org.tunefarm.coordinator.sweep.SweepSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpecs;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.Protocol;
import org.tunefarm.space.SearchSpace;

/**
 * A season of a farm's history written straight to a data folder, as a coordinator would have
 * kept it: sweeps of the gemm and sleep kernels, each begun by several device classes, and for
 * every class and shape up to {@link #PER_SEARCH} candidates of the class's own search space with
 * plausible statistics and sensor readings. Written with the coordinator's serializer, so a
 * coordinator opens it as its own; the sweep log's class starts fix the spaces the indices come from.
 * A season's sweeps are over but for the last few: every sweep but the last {@code running} gets the
 * line a leader writes when it lets an over sweep's searches go ({@link SweepLog.Entry#retired}), ten
 * minutes after its last record, with each search's final progress.
 */
public final class SyntheticHistory {
    /** Candidates one class measures of one shape in one sweep. */
    static final int PER_SEARCH = 500;
    static final int CORES = 2;
    static final int VECTOR_BITS = 256;
    static final List<String> CLASSES = List.of("zen3-2c-avx2-jdk25-5e1f0a01", "skylake-4c-avx512-jdk21-9c3d2b17",
            "cortex-a76-4c-neon-jdk21-77ab01c2", "cortex-a53-4c-neon-jdk17-0f3e9d44");
    static final int BOARDS_PER_CLASS = 8;
    private static final List<List<Map<String, Integer>>> GEMM_SHAPES = List.of(
            List.of(Map.of("M", 512, "N", 512, "K", 512), Map.of("M", 1024, "N", 1024, "K", 1024), Map.of("M", 1, "N", 4096, "K", 4096)),
            List.of(Map.of("M", 256, "N", 256, "K", 256), Map.of("M", 2048, "N", 512, "K", 512), Map.of("M", 64, "N", 4096, "K", 1024)));

    /** What was written: records, the bytes of both logs, sweeps, and of them those let go. */
    public record Written(long records, long bytes, int sweeps, int retired) {}

    /** Sweeps left running at the end of a season by default: the rest are over and let go. */
    public static final int RUNNING = 2;

    private SyntheticHistory() {}

    /**
     * Writes {@code records} records, and the sweeps they belong to, into {@code data} (records.jsonl, sweeps.jsonl).
     *
     * @param running sweeps left running at the end, the last ones; negative: all of them (no sweep let go)
     */
    public static Written write(Path data, long records, long seed, int running) throws IOException {
        Files.createDirectories(data);
        Random random = new Random(seed);
        long start = System.currentTimeMillis() - 90L * 24 * 3600 * 1000; // a season ago
        long written = 0;
        int sweepCount = 0;
        int retired = 0;
        // A sweep's retired line waits until {@code running} sweeps have begun after it: those stay running.
        java.util.ArrayDeque<String> over = new java.util.ArrayDeque<>();
        Path recordFile = data.resolve("records.jsonl");
        Path sweepFile = data.resolve("sweeps.jsonl");
        try (BufferedWriter out = Files.newBufferedWriter(recordFile, StandardCharsets.UTF_8);
             BufferedWriter sweeps = Files.newBufferedWriter(sweepFile, StandardCharsets.UTF_8)) {
            for (int n = 0; written < records; n++) {
                boolean gemm = n % 3 != 2; // most of a season's sweeps are real kernels
                SweepSpec spec = gemm ? gemmSweep(n) : sleepSweep(n);
                String id = String.format("%08x", 0x5ca1e000 + n);
                long at = start + n * 3_600_000L;
                if (running >= 0 && over.size() > running) {
                    sweeps.write(over.poll());
                    sweeps.newLine();
                    retired++;
                }
                sweeps.write(Protocol.write(new SweepLog.Entry(id, at, spec)));
                sweeps.newLine();
                sweepCount++;
                List<Search.Progress> progress = new ArrayList<>();
                long last = at;
                for (int c = 0; c < CLASSES.size() && written < records; c++) {
                    String deviceClass = CLASSES.get(c);
                    sweeps.write(Protocol.write(SweepLog.Entry.classStarted(id, deviceClass, null, CORES, VECTOR_BITS, at + c)));
                    sweeps.newLine();
                    long t = at + 60_000;
                    for (KernelKey key : spec.keys()) {
                        SearchSpace space = KernelSpecs.get(key.op()).space(key, CORES, VECTOR_BITS);
                        double base = gemm ? 2.0 * key.shape().values().stream().mapToDouble(Integer::doubleValue).reduce(1, (a, b) -> a * b) / (8 + 4 * c)
                                : 1000.0 * key.shape().get("unitUs");
                        int order = 0;
                        int failed = 0;
                        for (Iterator<Long> it = space.validIndices(0, space.size()); it.hasNext() && order < PER_SEARCH && written < records; order++) {
                            long index = it.next();
                            Measurement m = measurement(id, key, index, space.config(index), deviceClass, c, base, t, order, random);
                            if (m.status() != Status.OK) failed++;
                            t = m.finishedAt() + 20;
                            out.write(Protocol.write(m));
                            out.newLine();
                            written++;
                        }
                        progress.add(new Search.Progress(deviceClass, key.id(), spec.strategy().budget(), order, failed, 0, true, true, List.of(), 0, 0, null));
                    }
                    last = Math.max(last, t);
                }
                over.add(Protocol.write(SweepLog.Entry.retired(id, last + Dispatcher.RETIRE_AFTER_MS, progress)));
            }
        }
        return new Written(written, Files.size(recordFile) + Files.size(sweepFile), sweepCount, retired);
    }

    /** A candidate as an agent reports it: mostly OK with noisy statistics, now and then failed or wrong. */
    static Measurement measurement(String sweep, KernelKey key, long index, Map<String, Object> params, String deviceClass, int c,
                                           double base, long t, int order, Random r) {
        String agent = "board-" + c + "-" + r.nextInt(BOARDS_PER_CLASS);
        double temperature = 45 + 20 * r.nextDouble();
        SensorReading before = new SensorReading(temperature, 1800.0 + 100 * c, null);
        SensorReading after = new SensorReading(temperature + 3 * r.nextDouble(), 1800.0 + 100 * c - 50 * r.nextDouble(), null);
        int roll = r.nextInt(100);
        if (roll < 3) {
            return new Measurement(sweep, key, index, params, Status.CRASH, null, null, before, after,
                    "worker exited with status 134: java.lang.OutOfMemoryError: Java heap space", agent, deviceClass, t, t + 300, order);
        }
        double median = base * (0.5 + 4 * r.nextDouble() * r.nextDouble());
        double cv = 0.002 + 0.05 * r.nextDouble();
        Stats stats = new Stats(median * (1 - cv), median, median * (1 + cv / 2), median * cv, cv, 10, 1 + (int) (1e7 / (median + 1)), r.nextInt(3));
        long took = 50 + (long) (median * 10 / 1e6);
        return new Measurement(sweep, key, index, params, Status.OK, stats, key.op().equals("gemm") ? 1e-6 * r.nextDouble() : null,
                before, after, "", agent, deviceClass, t, t + took, order);
    }

    static SweepSpec gemmSweep(int n) {
        return new SweepSpec("gemm-season-" + n, "gemm", "fp32", GEMM_SHAPES.get(n % GEMM_SHAPES.size()), Map.of(), List.of(),
                new SweepSpec.StrategySpec("random", PER_SEARCH, 0, n, Map.of()), MeasureSettings.DEFAULTS, List.of(), 16);
    }

    private static SweepSpec sleepSweep(int n) {
        List<Map<String, Integer>> shapes = new ArrayList<>();
        for (int i = 0; i < 3; i++) shapes.add(Map.of("unitUs", 100 + 10 * n + i));
        return new SweepSpec("sleep-season-" + n, "sleep", "fp32", shapes, Map.of(), List.of(),
                new SweepSpec.StrategySpec("exhaustive", 0, 0, n, Map.of()), new MeasureSettings(3, 1.0, 5, 0.05, 10_000, 42), List.of(), 32);
    }
}
