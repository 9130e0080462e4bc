package org.tunefarm.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.tunefarm.lookup.Answer;
import org.tunefarm.lookup.Device;
import org.tunefarm.lookup.KernelIndex;
import org.tunefarm.lookup.ShapeRule;
import org.tunefarm.lookup.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tunefarm bench lookup}: what an application pays to look its kernel up in a table of a
 * fleet's size ({@link SyntheticTable}), per lookup, for exact, nearest and default answers,
 * against a {@code HashMap.get} of a precomputed key string timed in the same process and
 * interleaved with them; then the bytes a lookup allocates, from the JVM's per-thread counter.
 */
@Command(name = "lookup", mixinStandardHelpOptions = true,
        description = "ns per table lookup (exact, nearest, default) against HashMap.get, and bytes allocated per lookup.")
final class LookupCommand implements Callable<Integer> {

    /** Queries cycle through this many shapes (a power of two), so no answer is constant-folded. */
    private static final int QUERIES = 1024;

    @Option(names = "--quick", description = "Few lookups: a smoke test, not a measurement.")
    boolean quick;

    @Option(names = "--classes", description = "Device classes in the table (default: ${DEFAULT-VALUE}).", defaultValue = "10")
    int classes;

    @Option(names = "--shapes", description = "Tuned GEMM shapes per class (default: ${DEFAULT-VALUE}).", defaultValue = "200")
    int shapes;

    /** Keeps every answer read, so the JIT cannot drop a lookup. */
    private double sink;

    @Override public Integer call() throws Exception {
        long lookups = quick ? 20_000 : 2_000_000;
        int rounds = quick ? 3 : 9;
        String doc = SyntheticTable.json(classes, shapes, 42);
        long loadStart = System.nanoTime();
        Table table = Table.parse(doc);
        KernelIndex gemm = table.forDevice(Device.ofClass(SyntheticTable.className(0))).kernel("gemm", "fp32").orElseThrow();
        double loadMs = (System.nanoTime() - loadStart) / 1e6;

        List<int[]> tuned = gemm.tunedShapes();
        int[][] exact = cycle(tuned, 1);
        int[][] nearest = cycle(nearShapes(gemm, tuned), 2);
        int[][] fallback = cycle(farShapes(gemm), 3);
        check(gemm, exact, ShapeRule.EXACT);
        check(gemm, nearest, ShapeRule.NEAREST);
        check(gemm, fallback, ShapeRule.DEFAULT);
        // The baseline: the exact answers in a HashMap under their kernel ids, asked with equal (not the same) strings.
        Map<String, Answer> byId = new HashMap<>();
        for (int[] s : tuned) byId.put(gemm.lookup(s).kernelId(), gemm.lookup(s));
        String[] keys = new String[QUERIES];
        for (int i = 0; i < QUERIES; i++) keys[i] = new String(gemm.lookup(exact[i]).kernelId().toCharArray());

        System.out.printf(Locale.ROOT, "lookup: a table of %d classes x %d GEMM shapes (%d entries, loaded and indexed in %.0f ms); %d rounds of %,d lookups each%n",
                classes, shapes, table.size(), loadMs, rounds, lookups);
        double[][] ns = new double[4][rounds];
        for (int warm = 0; warm < 3; warm++) {
            mapNs(byId, keys, lookups / 4);
            for (int[][] q : List.of(exact, nearest, fallback)) indexNs(gemm, q, lookups / 4);
        }
        for (int r = 0; r < rounds; r++) {
            // Interleaved, so drift (heat, another process) reaches baseline and lookups alike.
            ns[0][r] = mapNs(byId, keys, lookups);
            ns[1][r] = indexNs(gemm, exact, lookups);
            ns[2][r] = indexNs(gemm, nearest, lookups);
            ns[3][r] = indexNs(gemm, fallback, lookups);
        }
        double base = Ranking.median(ns[0]), exactNs = Ranking.median(ns[1]), nearNs = Ranking.median(ns[2]), defaultNs = Ranking.median(ns[3]);
        long allocationLookups = quick ? 100_000 : 1_000_000;
        double bytesPerLookup = bytesPerLookup(gemm, new int[][][] {exact, nearest, fallback}, allocationLookups);

        System.out.printf(Locale.ROOT, "%-28s %9s %14s%n", "", "ns/lookup", "x HashMap.get");
        System.out.printf(Locale.ROOT, "%-28s %9.1f %14s%n", "HashMap.get (baseline)", base, "1.0");
        System.out.printf(Locale.ROOT, "%-28s %9.1f %14.1f%n", "exact shape", exactNs, exactNs / base);
        System.out.printf(Locale.ROOT, "%-28s %9.1f %14.1f%n", "nearest shape (" + shapes + " tuned)", nearNs, nearNs / base);
        System.out.printf(Locale.ROOT, "%-28s %9.1f %14.1f%n", "family default", defaultNs, defaultNs / base);
        System.out.printf(Locale.ROOT, "allocated: %.3f bytes per lookup over %,d lookups (exact, nearest, default in turn)%n", bytesPerLookup, allocationLookups);
        if (sink == 0.123456789) System.out.println(); // never: keeps the answers alive

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("bench", "lookup");
        json.put("classes", classes);
        json.put("shapesPerClass", shapes);
        json.put("entries", table.size());
        json.put("loadMs", FidelityCommand.round(loadMs));
        json.put("rounds", rounds);
        json.put("lookupsPerRound", lookups);
        json.put("hashMapGetNs", FidelityCommand.round(base));
        json.put("exactNs", FidelityCommand.round(exactNs));
        json.put("nearestNs", FidelityCommand.round(nearNs));
        json.put("defaultNs", FidelityCommand.round(defaultNs));
        json.put("exactOverHashMap", FidelityCommand.round(exactNs / base));
        json.put("nearestOverHashMap", FidelityCommand.round(nearNs / base));
        json.put("defaultOverHashMap", FidelityCommand.round(defaultNs / base));
        json.put("bytesPerLookup", FidelityCommand.round(bytesPerLookup));
        json.put("allocationLookups", allocationLookups);
        json.put("underOneMicrosecond", Math.max(exactNs, Math.max(nearNs, defaultNs)) < 1000);
        JsonLine.print(json);
        return 0;
    }

    private double indexNs(KernelIndex index, int[][] queries, long n) {
        double sum = 0;
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) sum += index.lookup(queries[(int) i & (QUERIES - 1)]).medianNs();
        long elapsed = System.nanoTime() - start;
        sink += sum;
        return (double) elapsed / n;
    }

    private double mapNs(Map<String, Answer> map, String[] keys, long n) {
        double sum = 0;
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) sum += map.get(keys[(int) i & (QUERIES - 1)]).medianNs();
        long elapsed = System.nanoTime() - start;
        sink += sum;
        return (double) elapsed / n;
    }

    private double bytesPerLookup(KernelIndex index, int[][][] kinds, long n) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double sum = 0;
        long before = mx.getCurrentThreadAllocatedBytes();
        for (long i = 0; i < n; i++) sum += index.lookup(kinds[(int) (i % 3)][(int) i & (QUERIES - 1)]).medianNs();
        long bytes = mx.getCurrentThreadAllocatedBytes() - before;
        sink += sum;
        return (double) bytes / n;
    }

    /** Each tuned shape with one dimension 1.25x larger: near (ln 1.25), and not itself tuned. */
    private static List<int[]> nearShapes(KernelIndex index, List<int[]> tuned) {
        List<int[]> out = new ArrayList<>();
        for (int[] s : tuned) {
            for (int j = 0; j < s.length; j++) {
                int[] q = s.clone();
                q[j] = Math.max(q[j] + 1, Math.round(q[j] * 1.25f));
                if (index.lookup(q).shapeRule() == ShapeRule.NEAREST) {
                    out.add(q);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * Shapes with sizes drawn log-uniformly from 1 to 16384 that are further than ln 4 from every
     * tuned one: mostly among the tuned volumes, so a lookup walks its whole window before it
     * settles for the default (a shape beyond every tuned volume would cost only a binary search).
     */
    private static List<int[]> farShapes(KernelIndex index) {
        SplittableRandom random = new SplittableRandom(5);
        List<int[]> out = new ArrayList<>();
        for (int tries = 0; out.size() < QUERIES && tries < 1_000_000; tries++) {
            int[] q = new int[index.dimensions().size()];
            for (int j = 0; j < q.length; j++) q[j] = (int) Math.round(Math.exp(random.nextDouble() * Math.log(16384)));
            if (index.lookup(q).shapeRule() == ShapeRule.DEFAULT) out.add(q);
        }
        return out;
    }

    /** QUERIES shapes drawn from {@code from} in a shuffled order. */
    private static int[][] cycle(List<int[]> from, long seed) {
        if (from.isEmpty()) throw new IllegalStateException("no shapes to query");
        SplittableRandom random = new SplittableRandom(seed);
        int[][] out = new int[QUERIES][];
        for (int i = 0; i < QUERIES; i++) out[i] = from.get(random.nextInt(from.size()));
        return out;
    }

    private static void check(KernelIndex index, int[][] queries, ShapeRule rule) {
        for (int[] q : queries) {
            Answer a = index.lookup(q);
            if (a == null || a.shapeRule() != rule) throw new IllegalStateException(Arrays.toString(q) + " was meant to be " + rule + ", got " + a);
        }
    }
}
