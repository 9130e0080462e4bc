package org.tunefarm.coordinator.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.tunefarm.space.SearchSpace;

class StrategiesTest {

    @Test
    void unknownStrategyIsNamedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Strategies.create("tabu", TestSpaces.tiny(), Map.of(), 1));
        assertTrue(e.getMessage().contains("'tabu'") && e.getMessage().contains("genetic"), e.getMessage());
    }

    @Test
    void unknownOptionIsNamedWithTheStrategy() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Strategies.create("genetic", TestSpaces.tiny(), Map.of("populationSize", 10), 1));
        assertTrue(e.getMessage().contains("'genetic'") && e.getMessage().contains("'populationSize'") && e.getMessage().contains("popSize"), e.getMessage());
    }

    @Test
    void illTypedOrOutOfRangeValuesAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Strategies.create("anneal", TestSpaces.tiny(), Map.of("cooling", "slow"), 1));
        assertTrue(e.getMessage().contains("'cooling'") && e.getMessage().contains("a number"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Strategies.create("random", TestSpaces.tiny(), Map.of("budget", -1), 1));
        assertThrows(IllegalArgumentException.class, () -> Strategies.create("model", TestSpaces.tiny(), Map.of("explore", 1.5), 1));
        assertThrows(IllegalArgumentException.class, () -> Strategies.create("bandit", TestSpaces.tiny(), Map.of("arms", "genetic,tabu"), 1));
    }

    @Test
    void optionsGivenAsTextAreConverted() {
        Strategy s = Strategies.create("genetic", TestSpaces.medium(), Map.of("popSize", "8", "crossover", "0.5", "budget", "3"), 1);
        assertEquals(3, s.propose(10).size());
    }

    @Test
    void describeListsEveryStrategyAndItsOptionsAndTheDefault() {
        String d = Strategies.describe();
        for (String n : Strategies.names()) {
            assertTrue(d.contains(n + ":") || d.contains(n + " (default):"), n);
            for (OptionSpec o : Strategies.options(n)) assertTrue(d.contains(o.name() + "="), o.name());
        }
        assertTrue(d.contains(Strategies.DEFAULT + " (default)"));
        assertTrue(Strategies.names().contains(Strategies.DEFAULT));
    }

    @Test
    void defaultNamesTheDefaultStrategy() {
        assertEquals(2, Strategies.create("default", TestSpaces.medium(), Map.of("budget", 2), 1).propose(5).size());
    }

    @Test
    void wallTimeBudgetStopsProposals() {
        SearchSpace space = TestSpaces.medium();
        long[] now = {0};
        History h = new History(new ValidPoints(space));
        Strategy s = new Budgeted(new RandomSearch(h, new java.util.SplittableRandom(1)), h, 0, 2.0, () -> now[0]);
        assertEquals(5, s.propose(5).size());
        now[0] = 1_999_000_000L;
        assertEquals(5, s.propose(5).size());
        now[0] = 2_000_000_000L;
        assertTrue(s.propose(5).isEmpty());
        assertTrue(s.finished());
    }

    @Test
    void modelStartsFromOtherDeviceClassesRecords() {
        SearchSpace space = TestSpaces.medium();
        long optimum = space.index(Map.of("a", 5, "b", 2, "c", "y"));
        List<Prior> priors = new ArrayList<>();
        space.validIndices().forEachRemaining(i -> {
            Result r = TestSpaces.measure(space, i);
            // Another board: everything 3x slower, same shape.
            if (r.isOk()) priors.add(new Prior(space.config(i), 3 * r.time(), "other-board"));
        });
        assertTrue(Strategies.usesPriors("model"));
        int hits = 0;
        for (long seed = 0; seed < 10; seed++) {
            Strategy s = Strategies.create("model", space, Map.of("explore", 0.0), seed, priors);
            if (s.propose(3).contains(optimum)) hits++;
        }
        assertTrue(hits >= 8, "warm-started model should propose the prior optimum first, did in " + hits + "/10");
    }

    @Test
    void aModelWithABackgroundExecutorNeverFitsInTheProposingCall() {
        SearchSpace space = TestSpaces.medium();
        List<Runnable> queued = new ArrayList<>();
        Strategy s = Strategies.create("model", space, Map.of("explore", 0.0, "initial", 8, "retrain", 4), 3, List.of(), queued::add);
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (int i = 0; i < 8; i++) {
            for (long p : s.propose(1)) {
                assertTrue(seen.add(p), "never proposed twice");
                s.tell(p, TestSpaces.measure(space, p));
            }
        }
        // Enough results for a model: its fit is handed to the executor, and proposals go on meanwhile.
        for (int i = 0; i < 12; i++) {
            for (long p : s.propose(1)) {
                assertTrue(seen.add(p), "never proposed twice");
                s.tell(p, TestSpaces.measure(space, p));
            }
        }
        assertEquals(1, queued.size(), "one refit at a time, however many results arrive meanwhile");
        assertEquals(20, seen.size(), "proposals did not wait for the model");
        // The fit runs (here, on this thread as a worker would); the next proposals follow its ranking,
        // which puts the bowl's bottom, never proposed yet, near the top.
        queued.remove(0).run();
        long optimum = space.index(Map.of("a", 5, "b", 2, "c", "y"));
        List<Long> next = new ArrayList<>();
        while (next.size() < 10 && !seen.contains(optimum)) {
            List<Long> p = s.propose(1);
            if (p.isEmpty()) break;
            next.addAll(p);
            seen.addAll(p);
            s.tell(p.get(0), TestSpaces.measure(space, p.get(0)));
            for (Runnable r : new ArrayList<>(queued)) {
                queued.remove(r);
                r.run();
            }
        }
        assertTrue(seen.contains(optimum), "the fitted model leads to the optimum within 10 more proposals: " + next);
    }
}
