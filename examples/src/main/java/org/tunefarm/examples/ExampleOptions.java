package org.tunefarm.examples;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tunefarm.lookup.Table;

/**
 * The example's command line: {@code [--table FILE] [--shape MxNxK]... [--samples N]
 * [--sample-ms MS] [--warmup-ms MS] [--max-distance D]}.
 *
 * @param shapes each {M, N, K}
 */
record ExampleOptions(Path table, List<int[]> shapes, int samples, double sampleMs, int warmupMs, double maxDistance, boolean help) {

    static final String USAGE = String.join("\n",
            "usage: tunefarm example [--table FILE] [--shape MxNxK]... [--samples N] [--sample-ms MS] [--warmup-ms MS] [--max-distance D]",
            "  Looks fp32 GEMM up in a best-kernel table for this machine, runs the chosen parameters and the",
            "  family default interleaved, checks both answers and prints the speedup.",
            "  --table FILE       a tunefarm.table/2 document (default: tunefarm-data/table.json, the demo's)",
            "  --shape MxNxK      a shape to look up (repeat; default: the demo's three tuned shapes and 768^3, 2x4096x4096, 256^3)",
            "  --samples N        timed samples per side (default: 5)",
            "  --sample-ms MS     shortest sample (default: 10)",
            "  --warmup-ms MS     longest warm-up per side (default: 500)",
            "  --max-distance D   largest shape distance of a NEAREST answer (default: ln 4 = 1.386)");

    /** The demo's tuned shapes, then three it did not tune: a near one, a batch-2 one and a far one. */
    static final List<int[]> DEFAULT_SHAPES = List.of(
            new int[] {512, 512, 512}, new int[] {1024, 1024, 1024}, new int[] {1, 4096, 4096},
            new int[] {768, 768, 768}, new int[] {2, 4096, 4096}, new int[] {256, 256, 256});

    /** @throws IllegalArgumentException naming the option at fault */
    static ExampleOptions parse(String... args) {
        Path table = Path.of("tunefarm-data", "table.json");
        List<int[]> shapes = new ArrayList<>();
        int samples = 5, warmupMs = 500;
        double sampleMs = 10, maxDistance = Table.DEFAULT_MAX_DISTANCE;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) return new ExampleOptions(table, shapes, samples, sampleMs, warmupMs, maxDistance, true);
            if (i + 1 >= args.length) throw new IllegalArgumentException(a + ": needs a value, or is not an option (" + USAGE.lines().findFirst().orElseThrow() + ")");
            String v = args[++i];
            try {
                switch (a) {
                    case "--table" -> table = Path.of(v);
                    case "--shape" -> shapes.add(shape(v));
                    case "--samples" -> samples = Integer.parseInt(v);
                    case "--sample-ms" -> sampleMs = Double.parseDouble(v);
                    case "--warmup-ms" -> warmupMs = Integer.parseInt(v);
                    case "--max-distance" -> maxDistance = Double.parseDouble(v);
                    default -> throw new IllegalArgumentException("unknown option (" + USAGE.lines().findFirst().orElseThrow() + ")");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(a + " " + v + ": " + e.getMessage(), e);
            }
        }
        return new ExampleOptions(table, shapes.isEmpty() ? DEFAULT_SHAPES : List.copyOf(shapes), samples, sampleMs, warmupMs, maxDistance, false);
    }

    private static int[] shape(String text) {
        String[] parts = text.split("x");
        if (parts.length != 3) throw new IllegalArgumentException("expected MxNxK, e.g. 768x768x768");
        int[] mnk = new int[3];
        for (int i = 0; i < 3; i++) {
            mnk[i] = Integer.parseInt(parts[i]);
            if (mnk[i] < 1) throw new IllegalArgumentException("sizes must be positive");
        }
        return mnk;
    }
}
