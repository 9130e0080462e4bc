package org.tunefarm.coordinator.replay;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.tunefarm.coordinator.strategy.OptionSpec;
import org.tunefarm.coordinator.strategy.Strategies;
import org.tunefarm.replay.KernelTunerCache;
import org.tunefarm.replay.RecordedSpace;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tunefarm replay}: scores strategies on a recorded space, offline. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Tune without hardware: run a strategy against a Kernel Tuner cache file and score it by fraction of optimum.")
public final class ReplayCommand implements Callable<Integer> {

    @Option(names = "--cache", required = true, paramLabel = "FILE", description = "Kernel Tuner cache file (.json or .json.gz; may be cut short)")
    Path cache;

    @Option(names = "--strategy", defaultValue = "default", paramLabel = "NAME",
            description = "a strategy name, 'default' (what sweeps use), or 'all' (every strategy plus random search's exact expectation)")
    String strategy;

    @Option(names = "--budget", defaultValue = "400", paramLabel = "N", description = "evaluations per run (default: ${DEFAULT-VALUE})")
    int budget;

    @Option(names = "--seeds", defaultValue = "20", paramLabel = "K", description = "runs with different seeds (default: ${DEFAULT-VALUE})")
    int seeds;

    @Option(names = "--concurrency", defaultValue = "1", paramLabel = "C",
            description = "proposals kept out at once, answered in random order (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = {"-o", "--option"}, paramLabel = "NAME=VALUE", description = "strategy option; with 'all', given to the strategies that have it")
    Map<String, String> options = new LinkedHashMap<>();

    @Option(names = "--json", description = "print the results as a JSON array on the last line")
    boolean json;

    @Spec CommandSpec spec;

    @Override public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        RecordedSpace recorded = KernelTunerCache.read(cache);
        out.printf(Locale.ROOT, "%s%s%n", recorded, recorded.truncated() ? " [file cut short; read what was complete]" : "");
        Replay replay = new Replay(recorded, budget, seeds, concurrency);
        List<String> names = strategy.equals("all") ? Strategies.names() : List.of(strategy);
        List<Report> reports = new ArrayList<>();
        for (String name : names) {
            Map<String, String> own = new LinkedHashMap<>(options);
            if (names.size() > 1) {
                List<String> known = Strategies.options(name).stream().map(OptionSpec::name).toList();
                own.keySet().retainAll(known);
            }
            Report r = replay.run(name.equals("default") ? Strategies.DEFAULT : name, own);
            reports.add(r);
            print(out, r);
        }
        if (strategy.equals("all")) {
            Report r = replay.randomExpectation();
            reports.add(r);
            print(out, r);
        }
        if (json) out.println(toJson(reports));
        out.flush();
        return 0;
    }

    private static void print(PrintWriter out, Report r) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-16s", r.strategy()));
        for (Report.Checkpoint c : r.checkpoints()) b.append(String.format(Locale.ROOT, "  @%d %.3f/%.3f", c.evaluations(), c.meanFraction(), c.medianFraction()));
        b.append(String.format(Locale.ROOT, "  to0.95 %s  to0.98 %s  (%.1f s)", fmt(r.evaluationsTo95()), fmt(r.evaluationsTo98()), r.seconds()));
        out.println(b);
        out.flush();
    }

    private static String fmt(Double d) {
        return d == null ? "never" : d == Math.rint(d) ? String.valueOf(d.intValue()) : d.toString();
    }

    static String toJson(List<Report> reports) throws JsonProcessingException {
        ObjectMapper m = new ObjectMapper();
        ArrayNode a = m.createArrayNode();
        for (Report r : reports) {
            ObjectNode o = a.addObject();
            o.put("strategy", r.strategy());
            o.put("space", r.space());
            o.put("size", r.size());
            o.put("optimum", r.optimum());
            ArrayNode cs = o.putArray("checkpoints");
            for (Report.Checkpoint c : r.checkpoints()) {
                cs.addObject().put("evaluations", c.evaluations()).put("meanFraction", c.meanFraction()).put("medianFraction", c.medianFraction());
            }
            o.put("evaluationsTo95", r.evaluationsTo95());
            o.put("evaluationsTo98", r.evaluationsTo98());
        }
        return m.writeValueAsString(a);
    }

    /** The help footer lists every strategy and its options, from their declarations. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new ReplayCommand());
        cl.getCommandSpec().usageMessage().footer("", "Strategies and their options (-o NAME=VALUE):", Strategies.describe());
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
