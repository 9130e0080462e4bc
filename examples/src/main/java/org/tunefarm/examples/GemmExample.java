package org.tunefarm.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.tunefarm.agent.harness.CandidateOutcome;
import org.tunefarm.agent.harness.Harness;
import org.tunefarm.agent.kernels.KernelFamilies;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.lookup.Answer;
import org.tunefarm.lookup.Device;
import org.tunefarm.lookup.DeviceTable;
import org.tunefarm.lookup.KernelIndex;
import org.tunefarm.lookup.Table;
import org.tunefarm.lookup.TableFormatException;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Status;

/**
 * {@code tunefarm example}: an application that ships a best-kernel table. It loads the table,
 * finds this machine's device class as an agent computes it, looks fp32 GEMM up for a few shapes
 * (tuned ones and untuned ones), runs the agent's GEMM kernel with the parameters it got and with
 * the family default (same harness, same samples and warm-up, interleaved), checks both answers
 * against a reference, and prints the speedup. It also shows the lookup a C program would make,
 * with only the CPU model and the vector width.
 *
 * <p>Exit status: 0 when every shape ran and verified, 1 when one did not, 2 for a missing or
 * malformed table or a bad option.
 */
public final class GemmExample {

    private GemmExample() {}

    public static void main(String[] args) throws IOException {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        ExampleOptions o;
        try {
            o = ExampleOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("example: " + e.getMessage());
            return 2;
        }
        if (o.help()) {
            out.println(ExampleOptions.USAGE);
            return 0;
        }
        if (!Files.isRegularFile(o.table())) {
            err.println("example: no table at " + o.table() + ": run ./tunefarm demo first (it writes tunefarm-data/table.json), or pass --table FILE");
            return 2;
        }
        Table table;
        try {
            table = Table.load(o.table());
        } catch (TableFormatException e) {
            err.println("example: " + o.table() + ": " + e.getMessage());
            return 2;
        }
        DeviceProfile profile = ThisDevice.profile();
        Device device = ThisDevice.of(profile);
        out.printf(Locale.ROOT, "table %s: %d entries, %d device classes, farm %s%n", o.table(), table.size(), table.deviceClasses().size(), table.farmId());
        out.printf(Locale.ROOT, "this machine: %s (%s, %d cores, %d-bit vectors, Java %d)%n",
                profile.deviceClass(), profile.cpuModel(), profile.physicalCores(), profile.vectorBits(), profile.jvmMajor());

        DeviceTable mine = table.forDevice(device, o.maxDistance());
        KernelIndex gemm = mine.kernel("gemm", "fp32").orElse(null);
        if (gemm == null) {
            out.println("the table has no fp32 GEMM for this machine: no class of it matches by class, CPU model and width, or ISA " + device.isa()
                    + " (classes: " + table.deviceClasses() + ")");
            return 1;
        }
        out.printf(Locale.ROOT, "fp32 GEMM answers from %s (device rule %s)%n", gemm.deviceClass(), gemm.deviceRule());
        // What a C program gets: it knows its CPU model and vector width, not a JVM's class hash.
        KernelIndex byProfile = table.forDevice(Device.ofProfile(profile.cpuModel(), profile.vectorBits()), o.maxDistance()).kernel("gemm", "fp32").orElse(null);
        out.println("by CPU model and vector width only (as a C program asks): "
                + (byProfile == null ? "no class matches" : byProfile.deviceClass() + " (device rule " + byProfile.deviceRule() + ")"));
        out.println();

        KernelFamily family = KernelFamilies.get("gemm");
        Harness harness = Harness.create();
        MeasureSettings settings = new MeasureSettings(o.samples(), o.sampleMs(), o.warmupMs(), 0.05, 600_000, 42);
        int cores = Runtime.getRuntime().availableProcessors();
        boolean allVerified = true;
        for (int[] mnk : o.shapes()) {
            KernelKey key = new KernelKey("gemm", Map.of("M", mnk[0], "N", mnk[1], "K", mnk[2]), "fp32");
            int[] shape = gemm.shape(key.shape()); // built once per shape in a real application
            Answer a = gemm.lookup(shape);
            String name = key.shapeText(List.of("M", "N", "K"));
            if (a == null) {
                out.printf(Locale.ROOT, "%-14s no answer: nothing tuned within distance %.3f and no family default in the table%n%n", name, gemm.maxDistance());
                continue;
            }
            out.printf(Locale.ROOT, "%-14s %-7s %s%n", name, a.shapeRule(), matched(gemm, shape, a));
            out.println("  params   " + text(a.params()));
            // The untuned baseline: what this shape gets from the family with no table at all.
            Map<String, Object> untuned = family.spec().defaultConfig(key, cores);
            List<CandidateOutcome> runs = harness.measureInterleaved(family, key, List.of(a.params(), untuned), settings);
            CandidateOutcome chosen = runs.get(0), fallback = runs.get(1);
            if (chosen.status() != Status.OK || fallback.status() != Status.OK) {
                allVerified = false;
                out.printf(Locale.ROOT, "  FAILED   chosen %s %s / default %s %s%n%n", chosen.status(), chosen.detail(), fallback.status(), fallback.detail());
                continue;
            }
            double flops = family.spec().flops(key);
            double chosenGflops = flops / chosen.stats().medianNs(), defaultGflops = flops / fallback.stats().medianNs();
            out.printf(Locale.ROOT, "  chosen %8.2f GFLOP/s   default %8.2f GFLOP/s   speedup %6.2fx   verified (max error %.1e, %.1e)%n%n",
                    chosenGflops, defaultGflops, fallback.stats().medianNs() / chosen.stats().medianNs(), chosen.maxError(), fallback.maxError());
        }
        return allVerified ? 0 : 1;
    }

    /** Where the answer came from, in a line. */
    private static String matched(KernelIndex gemm, int[] shape, Answer a) {
        String tuned = a.shape().get("M") + "x" + a.shape().get("N") + "x" + a.shape().get("K");
        String farm = String.format(Locale.ROOT, "farm: %s, sweep %s%s%s", Double.isNaN(a.gflops()) ? "n/a GFLOP/s" : String.format(Locale.ROOT, "%.1f GFLOP/s", a.gflops()),
                a.sweepId(), a.agentId() == null ? "" : ", board " + a.agentId(), a.measuredAt() == null ? "" : ", " + a.measuredAt());
        return switch (a.shapeRule()) {
            case EXACT -> String.format(Locale.ROOT, "tuned (%s, %.1fx over default there)", farm, a.speedupOverDefault());
            case NEAREST -> String.format(Locale.ROOT, "from %s at distance %.3f (%s, %.1fx over default there)",
                    tuned, KernelIndex.distance(shape, gemm.shape(a.shape())), farm, a.speedupOverDefault());
            case DEFAULT -> String.format(Locale.ROOT, "nothing tuned within %.3f: the family default (as measured on %s, %s)", gemm.maxDistance(), tuned, farm);
        };
    }

    private static String text(Map<String, Object> params) {
        return new TreeMap<>(params).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }
}
