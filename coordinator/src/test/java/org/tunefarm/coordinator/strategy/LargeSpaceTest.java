package org.tunefarm.coordinator.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/**
 * Every strategy works on a space of about 10^9 points (nine parameters of ten values, the
 * constraint's two thirds valid), which no strategy can list: it proposes distinct valid points
 * and keeps learning from their results. A strategy that walked or listed the space would take
 * minutes and gigabytes here; all of them together take about a second.
 */
class LargeSpaceTest {

    static List<String> strategies() {
        return Strategies.names();
    }

    static SearchSpace billion() {
        List<Parameter> ps = new ArrayList<>();
        int[] values = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        for (String n : List.of("a", "b", "c", "d", "e", "f", "g", "h", "i")) ps.add(Parameter.ints(n, values));
        return new SearchSpace(ps, List.of(TestSpaces.NOT_MULTIPLE_OF_3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void proposesDistinctValidPointsOfABillionPointSpace(String name) {
        SearchSpace space = billion();
        assertEquals(1_000_000_000L, space.size());
        Strategy s = Strategies.create(name, space, Map.of("budget", 120), 5);
        Set<Long> seen = new HashSet<>();
        for (int round = 0; round < 30 && !s.finished(); round++) {
            for (long i : s.propose(4)) {
                assertTrue(space.isValid(i), name + " proposed an invalid point " + i);
                assertTrue(seen.add(i), name + " proposed " + i + " twice");
                int[] c = space.choices(i);
                double t = 1;
                for (int k = 0; k < c.length; k++) t += (c[k] - 4) * (c[k] - 4);
                s.tell(i, Result.ok(t));
            }
        }
        assertEquals(120, seen.size(), name + " spent its budget on distinct points");
    }
}
