package org.tunefarm.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SearchSpaceTest {

    private static final SearchSpace GEMM = SearchSpace.of(List.of(
                    Parameter.ints("tileM", 16, 32, 64, 128),
                    Parameter.ints("tileK", 8, 16, 32),
                    Parameter.ints("vector", 4, 8, 16),
                    Parameter.strings("order", "ijk", "ikj", "kij")),
            List.of("tileM * tileK <= 2048", "tileM % vector == 0", "order != \"kij\" || vector == 8"));

    @Test
    void indexOfAConfigMatchesTheDeclaredOrder() {
        // tileM is the most significant digit: (((1 * 3 + 2) * 3 + 1) * 3 + 0).
        long index = GEMM.index(Map.of("tileM", 32, "tileK", 32, "vector", 8, "order", "ijk"));
        assertEquals(48, index);
        assertEquals(Map.of("tileM", 32, "tileK", 32, "vector", 8, "order", "ijk"), GEMM.config(index));
        assertEquals(List.of("tileM", "tileK", "vector", "order"), List.copyOf(GEMM.config(index).keySet()));
    }

    @Test
    void constraintsSelectTheValidPoints() {
        assertTrue(GEMM.isValid(GEMM.index(Map.of("tileM", 64, "tileK", 32, "vector", 16, "order", "ikj"))));
        assertFalse(GEMM.isValid(GEMM.index(Map.of("tileM", 128, "tileK", 32, "vector", 16, "order", "ikj"))));
        long kij = GEMM.index(Map.of("tileM", 64, "tileK", 8, "vector", 4, "order", "kij"));
        assertEquals("order != \"kij\" || vector == 8", GEMM.violated(kij).text());
    }

    @Test
    void indexOfAConfigNamesAnUnknownParameter() {
        Map<String, Object> config = new HashMap<>(GEMM.config(0));
        config.put("tileN", 16);
        var e = assertThrows(IllegalArgumentException.class, () -> GEMM.index(config));
        assertTrue(e.getMessage().contains("'tileN'"), e.getMessage());
    }

    @Test
    void indexOfAConfigNamesAMissingParameter() {
        Map<String, Object> config = new HashMap<>(GEMM.config(0));
        config.remove("vector");
        var e = assertThrows(IllegalArgumentException.class, () -> GEMM.index(config));
        assertTrue(e.getMessage().contains("'vector'") && e.getMessage().contains("missing"), e.getMessage());
    }

    @Test
    void indexOfAConfigNamesAParameterWhoseValueIsOutsideItsDomain() {
        for (Object bad : List.<Object>of(48, "16", 16.5)) {
            Map<String, Object> config = new HashMap<>(GEMM.config(0));
            config.put("tileM", bad);
            var e = assertThrows(IllegalArgumentException.class, () -> GEMM.index(config));
            assertTrue(e.getMessage().contains("'tileM'") && e.getMessage().contains(String.valueOf(bad)), e.getMessage());
        }
        Map<String, Object> config = new HashMap<>(GEMM.config(0));
        config.put("order", 1);
        var e = assertThrows(IllegalArgumentException.class, () -> GEMM.index(config));
        assertTrue(e.getMessage().contains("'order'"), e.getMessage());
    }

    @Test
    void indexOfAConfigAcceptsWholeNumbersOfOtherTypes() {
        // JSON and YAML readers hand over Longs or Doubles; the value, not its Java type, matters.
        assertEquals(GEMM.index(Map.of("tileM", 32, "tileK", 8, "vector", 4, "order", "ijk")),
                GEMM.index(Map.of("tileM", 32L, "tileK", 8.0, "vector", 4, "order", "ijk")));
    }

    @Test
    void sampleReturnsOnlyValidPointsRoughlyUniformly() {
        SearchSpace triangle = SearchSpace.of(List.of(Parameter.ints("a", 1, 2, 3, 4), Parameter.ints("b", 1, 2, 3, 4)),
                List.of("a + b <= 5"));
        assertEquals(10, triangle.countValid());
        SplittableRandom random = new SplittableRandom(42);
        Map<Long, Integer> counts = new HashMap<>();
        int draws = 20_000;
        for (int i = 0; i < draws; i++) {
            long index = triangle.sample(random, 100).orElseThrow();
            assertTrue(triangle.isValid(index));
            counts.merge(index, 1, Integer::sum);
        }
        assertEquals(10, counts.size());
        double expected = draws / 10.0;
        double chiSquare = counts.values().stream().mapToDouble(c -> (c - expected) * (c - expected) / expected).sum();
        // 9 degrees of freedom: 27.88 is the 0.999 quantile; the seed makes the outcome fixed.
        assertTrue(chiSquare < 27.88, "chi-square " + chiSquare + " for " + counts);
    }

    @Test
    void sampleGivesUpOnASpaceWithNoValidPoint() {
        SearchSpace none = SearchSpace.of(List.of(Parameter.ints("a", 1, 2)), List.of("a > 2"));
        assertEquals(OptionalLong.empty(), none.sample(new SplittableRandom(1), 50));
        assertEquals(List.of(), none.partition(4));
        assertFalse(none.validIndices().hasNext());
    }

    @Test
    void aTrillionPointSpaceWorksWithoutMaterialising() {
        List<Parameter> ps = new ArrayList<>();
        for (int i = 0; i < 12; i++) ps.add(Parameter.ints("p" + i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
        SearchSpace huge = SearchSpace.of(ps, List.of("p0 + p1 <= 12", "p11 % 2 == 0 || p10 != 9"));
        assertEquals(1_000_000_000_000L, huge.size());

        for (long index : new long[] {0, 1, 123_456_789_012L, huge.size() - 2, huge.size() - 1}) {
            Map<String, Object> config = huge.config(index);
            assertEquals(index, huge.index(config));
            assertEquals(index, huge.index(huge.choices(index)));
        }
        assertTrue(huge.config(huge.size() - 1).values().stream().allMatch(v -> v.equals(9)));
        assertTrue(huge.config(0).values().stream().allMatch(v -> v.equals(0)));
        assertThrows(IllegalArgumentException.class, () -> huge.choices(huge.size()));

        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 1000; i++) assertTrue(huge.isValid(huge.sample(random, 100).orElseThrow()));

        // All-zero corner: every parameter can only step up, and every such step is valid.
        assertEquals(12, huge.neighbours(0).size());
        for (long n : huge.neighbours(0)) assertOneStepApart(huge, 0, n);
        // p0 = p1 = 6 is on the edge of p0 + p1 <= 12: those two can only step down (stepping up
        // leaves the valid region), the ten others at 0 only up.
        int[] edge = new int[12];
        edge[0] = 6;
        edge[1] = 6;
        long at = huge.index(edge);
        List<Long> around = huge.neighbours(at);
        assertEquals(12, around.size());
        for (long n : around) assertOneStepApart(huge, at, n);
        assertTrue(around.contains(at - huge.index(new int[] {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})));

        // Deep in the space, the lazy walk finds p10 = 8 (all p11 valid), then p10 = 9 (even p11 only).
        int[] start = {6, 6, 9, 9, 9, 9, 9, 9, 9, 9, 8, 0};
        long from = huge.index(start);
        List<Long> valid = new ArrayList<>();
        huge.validIndices(from, from + 20).forEachRemaining(valid::add);
        List<Long> expected = new ArrayList<>();
        for (int k = 0; k < 10; k++) expected.add(from + k);
        for (int k = 10; k < 20; k += 2) expected.add(from + k);
        assertEquals(expected, valid);
    }

    @Test
    void neighboursOnlyReturnValidPointsOneStepAway() {
        for (long i = 0; i < GEMM.size(); i++) {
            for (long n : GEMM.neighbours(i)) {
                assertTrue(GEMM.isValid(n));
                assertOneStepApart(GEMM, i, n);
            }
        }
    }

    @Test
    void narrowRejectsAValueOutsideTheDomainNamingTheParameter() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> GEMM.narrow(Map.of("tileK", List.of(8, 24)), List.of()));
        assertTrue(e.getMessage().contains("tileK") && e.getMessage().contains("24"), e.getMessage());
        var unknown = assertThrows(IllegalArgumentException.class,
                () -> GEMM.narrow(Map.of("tileN", List.of(8)), List.of()));
        assertTrue(unknown.getMessage().contains("tileN"), unknown.getMessage());
    }

    @Test
    void narrowKeepsDomainOrderAndEveryConstraint() {
        SearchSpace narrow = GEMM.narrow(Map.of("tileM", List.of(128, 32L, 16)), List.of("vector != 16"));
        assertEquals(List.of(16, 32, 128), narrow.parameter("tileM").values());
        assertEquals(GEMM.constraints().size() + 1, narrow.constraints().size());
        for (long i = 0; i < narrow.size(); i++) {
            Map<String, Object> config = narrow.config(i);
            boolean expected = GEMM.isValid(GEMM.index(config)) && !config.get("vector").equals(16);
            assertEquals(expected, narrow.isValid(i), config.toString());
        }
    }

    @Test
    void narrowKeepsAConstraintThatIsNotAnExpression() {
        // A replayed space restricts to the points it has records for, by choices, not by text.
        Set<Long> recorded = Set.of(0L, 5L, 40L, 100L);
        SearchSpace wide = SearchSpace.of(GEMM.parameters(), List.of());
        Constraint replayed = new Constraint() {
            public boolean test(int[] choices, SearchSpace space) { return recorded.contains(space.index(choices)); }
            public String text() { return "recorded points"; }
        };
        SearchSpace replay = new SearchSpace(wide.parameters(), List.of(replayed));
        SearchSpace narrow = replay.narrow(Map.of("order", List.of("ikj")), List.of());
        List<Map<String, Object>> valid = new ArrayList<>();
        narrow.validIndices().forEachRemaining(i -> valid.add(narrow.config(i)));
        List<Map<String, Object>> expected = recorded.stream().sorted().map(wide::config)
                .filter(c -> c.get("order").equals("ikj")).toList();
        assertEquals(expected, valid);
    }

    private static void assertOneStepApart(SearchSpace space, long a, long b) {
        int[] x = space.choices(a);
        int[] y = space.choices(b);
        int changed = 0;
        for (int p = 0; p < x.length; p++) {
            if (x[p] != y[p]) {
                changed++;
                assertEquals(1, Math.abs(x[p] - y[p]), "step of one in " + space.parameters().get(p).name());
            }
        }
        assertEquals(1, changed, a + " and " + b);
    }
}
