package org.tunefarm.coordinator.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.tunefarm.replay.KernelTunerCache;
import org.tunefarm.replay.RecordedSpace;

class ReplayTest {

    @TempDir Path dir;

    /** A 6 x 5 space with 20 recorded points, 3 of them failed, written as a Kernel Tuner cache. */
    private Path syntheticCache() throws IOException {
        StringBuilder b = new StringBuilder("""
                {"device_name": "Fake", "kernel_name": "k", "tune_params_keys": ["x", "y"],
                 "tune_params": {"x": [1, 2, 3, 4, 5, 6], "y": [8, 16, 32, 64, 128]}, "objective": "time", "cache": {""");
        int n = 0;
        for (int x = 1; x <= 6; x++) {
            for (int y : new int[] {8, 16, 32, 64, 128}) {
                if ((x * 7 + y) % 3 == 0) continue; // not recorded: invalid
                if (n > 0) b.append(",\n");
                String time = (x + y) % 7 == 0 ? "\"RuntimeFailedConfig\"" : String.valueOf(1.0 + Math.abs(x - 4) + Math.abs(Math.log(y / 32.0)));
                b.append('"').append(x).append(',').append(y).append("\": {\"x\": ").append(x).append(", \"y\": ").append(y).append(", \"time\": ").append(time).append('}');
                n++;
            }
        }
        b.append("}}");
        Path f = dir.resolve("synthetic.json");
        Files.writeString(f, b);
        return f;
    }

    @Test
    void exhaustiveAtFullBudgetFindsTheOptimum() throws IOException {
        RecordedSpace r = KernelTunerCache.read(syntheticCache());
        Report rep = new Replay(r, r.size(), 3, 1).run("exhaustive", Map.of());
        Report.Checkpoint last = rep.checkpoints().get(rep.checkpoints().size() - 1);
        assertEquals(r.size(), last.evaluations());
        assertEquals(1.0, last.meanFraction(), 1e-12);
        assertEquals(1.0, last.medianFraction(), 1e-12);
        assertNotNull(rep.evaluationsTo98());
    }

    @Test
    void everyStrategyReachesTheOptimumWhenAllowedTheWholeSpaceAndManyOutstanding() throws IOException {
        RecordedSpace r = KernelTunerCache.read(syntheticCache());
        for (String s : org.tunefarm.coordinator.strategy.Strategies.names()) {
            Report rep = new Replay(r, r.size(), 2, 4).run(s, Map.of());
            assertEquals(1.0, rep.checkpoints().get(rep.checkpoints().size() - 1).meanFraction(), 1e-12, s);
        }
    }

    @Test
    void fractionIsZeroUntilSomethingValidIsFound() throws IOException {
        RecordedSpace r = KernelTunerCache.read(syntheticCache());
        RandomExpectation e = new RandomExpectation(r.okTimes(), r.size());
        assertEquals(0, e.meanFraction(0), 1e-12);
        assertEquals(1, e.meanFraction(r.size()), 1e-12);
        RandomExpectation allFailed = new RandomExpectation(new double[0], 5);
        assertEquals(0, allFailed.meanFraction(3), 1e-12);
        assertNull(allFailed.report("x", List.of(1)).evaluationsTo95());
    }

    @Test
    void randomExpectationMatchesSimulation() throws IOException {
        RecordedSpace r = KernelTunerCache.read(syntheticCache());
        RandomExpectation exact = new RandomExpectation(r.okTimes(), r.size());
        long[] points = r.indices();
        int trials = 40_000;
        SplittableRandom rng = new SplittableRandom(5);
        for (int draws : new int[] {1, 3, 6, 12}) {
            double sum = 0;
            int reached95 = 0;
            for (int t = 0; t < trials; t++) {
                long[] p = points.clone();
                double best = Double.POSITIVE_INFINITY;
                for (int d = 0; d < draws; d++) {
                    int j = d + rng.nextInt(p.length - d);
                    long pick = p[j];
                    p[j] = p[d];
                    p[d] = pick;
                    if (r.time(pick).isPresent()) best = Math.min(best, r.time(pick).getAsDouble());
                }
                double f = Double.isFinite(best) ? r.optimum() / best : 0;
                sum += f;
                if (f >= 0.95) reached95++;
            }
            assertEquals(sum / trials, exact.meanFraction(draws), 0.01, "mean fraction after " + draws);
            boolean medianReached = reached95 >= trials / 2;
            int to95 = exact.medianDrawsTo(0.95);
            if (Math.abs(reached95 - trials / 2.0) > trials * 0.02) assertEquals(medianReached, draws >= to95, "median draws to 0.95 vs " + draws);
        }
    }

    @Test
    void commandPrintsJsonArrayAsLastLine() throws Exception {
        Path cache = syntheticCache();
        StringWriter sw = new StringWriter();
        var cl = ReplayCommand.commandLine();
        cl.setOut(new PrintWriter(sw));
        int code = cl.execute("--cache", cache.toString(), "--strategy", "all", "--budget", "15", "--seeds", "3", "--json");
        assertEquals(0, code, sw.toString());
        String[] lines = sw.toString().trim().split("\n");
        JsonNode a = new ObjectMapper().readTree(lines[lines.length - 1]);
        assertTrue(a.isArray());
        assertEquals(org.tunefarm.coordinator.strategy.Strategies.names().size() + 1, a.size());
        for (JsonNode o : a) {
            for (String f : List.of("strategy", "space", "size", "optimum", "checkpoints", "evaluationsTo95", "evaluationsTo98")) assertTrue(o.has(f), f);
            assertEquals("synthetic", o.get("space").asText());
            assertEquals(List.of(10, 15), Arrays.stream(o.get("checkpoints").findValues("evaluations").toArray(new JsonNode[0])).map(JsonNode::asInt).toList());
        }
        assertEquals("random-expected", a.get(a.size() - 1).get("strategy").asText());
    }

    @Test
    void commandNamesAnUnknownStrategy() throws Exception {
        StringWriter err = new StringWriter();
        var cl = ReplayCommand.commandLine();
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(new StringWriter()));
        int code = cl.execute("--cache", syntheticCache().toString(), "--strategy", "tabu");
        assertTrue(code != 0);
        assertTrue(err.toString().contains("tabu"), err.toString());
    }
}
