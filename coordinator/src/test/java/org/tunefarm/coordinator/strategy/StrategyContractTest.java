package org.tunefarm.coordinator.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.tunefarm.space.SearchSpace;

/** What every registered strategy promises, checked the same way for each. */
class StrategyContractTest {

    static List<String> strategies() {
        return Strategies.names();
    }

    /** Keeps {@code outstanding} proposals out and answers them in random order; returns every proposal. */
    private static List<Long> drive(Strategy s, SearchSpace space, int outstanding, long seed, int maxRounds) {
        SplittableRandom order = new SplittableRandom(seed);
        List<Long> all = new ArrayList<>();
        List<Long> out = new ArrayList<>();
        for (int round = 0; round < maxRounds; round++) {
            List<Long> got = s.propose(1 + order.nextInt(outstanding));
            all.addAll(got);
            out.addAll(got);
            if (out.isEmpty()) break;
            int answers = 1 + order.nextInt(out.size());
            for (int k = 0; k < answers; k++) {
                long i = out.remove(order.nextInt(out.size()));
                s.tell(i, TestSpaces.measure(space, i));
            }
        }
        return all;
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void neverProposesInvalidOrRepeatedPointsAndKeepsToItsBudget(String name) {
        SearchSpace space = TestSpaces.medium();
        for (long seed = 0; seed < 3; seed++) {
            Strategy s = Strategies.create(name, space, Map.of("budget", 60), seed);
            List<Long> proposed = drive(s, space, 7, seed, 1000);
            assertEquals(60, proposed.size(), name + " should use its whole budget of 60");
            assertEquals(proposed.size(), new HashSet<>(proposed).size(), name + " proposed a point twice");
            for (long i : proposed) assertTrue(space.isValid(i), name + " proposed invalid point " + space.config(i));
            assertTrue(s.finished(), name);
            assertTrue(s.propose(5).isEmpty(), name + " proposed beyond its budget");
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void finishesAfterProposingEveryPointOfATinySpace(String name) {
        SearchSpace space = TestSpaces.tiny();
        Strategy s = Strategies.create(name, space, Map.of(), 42);
        List<Long> proposed = drive(s, space, 3, 42, 1000);
        Set<Long> valid = new HashSet<>();
        space.validIndices().forEachRemaining(valid::add);
        assertEquals(valid, new HashSet<>(proposed), name + " should cover the tiny space exactly");
        assertEquals(valid.size(), proposed.size(), name);
        assertTrue(s.finished(), name + " should say it is finished");
        assertTrue(s.propose(3).isEmpty(), name);
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void keepsProposingWhileResultsAreOutstanding(String name) {
        SearchSpace space = TestSpaces.medium();
        Strategy s = Strategies.create(name, space, Map.of("budget", 50), 7);
        List<Long> first = s.propose(30);
        List<Long> second = s.propose(15);
        assertEquals(30, first.size(), name);
        assertEquals(15, second.size(), name + " must not wait for results when it has candidates to give");
        Set<Long> all = new HashSet<>(first);
        all.addAll(second);
        assertEquals(45, all.size(), name);
        // Late, out-of-order results including failures, and a duplicate that is ignored.
        for (int k = second.size() - 1; k >= 0; k--) s.tell(second.get(k), TestSpaces.measure(space, second.get(k)));
        s.tell(second.get(0), Result.ok(0.001));
        for (long i : first) s.tell(i, Result.failed("RuntimeFailedConfig"));
        List<Long> rest = s.propose(100);
        assertEquals(5, rest.size(), name);
        for (long i : rest) assertFalse(all.contains(i), name);
    }
}
