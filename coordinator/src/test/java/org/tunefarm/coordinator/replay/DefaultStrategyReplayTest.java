package org.tunefarm.coordinator.replay;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.tunefarm.coordinator.strategy.Strategies;
import org.tunefarm.replay.KernelTunerCache;
import org.tunefarm.replay.RecordedSpace;

/**
 * The default strategy on every measured reference space, at the budget the README quotes (200).
 * Replay is deterministic per seed, so these are fixed figures, not samples that may wobble.
 * With 10 seeds the bandit measured a worst space mean of 0.987 and 1 run of 50 below 0.95; before
 * it forgot credit on a stall, 0.976 and 7 runs of 50: the second assertion is the one a default
 * that sits in one basin fails.
 */
class DefaultStrategyReplayTest {
    private static final int BUDGET = 200;
    private static final int SEEDS = 10;

    @Test
    void defaultReachesNearTheOptimumOnEveryReferenceSpaceAndRarelyStalls() throws IOException {
        Path folder = SpacesFolder.find();
        assumeTrue(folder != null, "shared/data/spaces is not beside this checkout");
        List<Path> files;
        try (Stream<Path> s = Files.list(folder)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".json.gz")).sorted().toList();
        }
        assumeTrue(!files.isEmpty(), "no recorded spaces in " + folder);
        double worstMean = 1;
        String worstSpace = null;
        List<String> stalled = new ArrayList<>();
        for (Path f : files) {
            RecordedSpace r = KernelTunerCache.read(f);
            Replay replay = new Replay(r, BUDGET, SEEDS, 1);
            double[] finals = IntStream.range(0, SEEDS).parallel()
                    .mapToDouble(seed -> replay.curve(Strategies.DEFAULT, Map.of(), seed)[BUDGET]).toArray();
            double mean = java.util.Arrays.stream(finals).average().orElse(0);
            if (mean < worstMean) {
                worstMean = mean;
                worstSpace = r.name();
            }
            for (int seed = 0; seed < SEEDS; seed++) if (finals[seed] < 0.95) stalled.add(r.name() + "#" + seed + "=" + finals[seed]);
        }
        assertTrue(worstMean >= 0.95, "worst space " + worstSpace + ": mean fraction of optimum " + worstMean + " at " + BUDGET);
        assertTrue(stalled.size() <= 3, "runs below 0.95 of optimum at " + BUDGET + ": " + stalled);
    }
}
