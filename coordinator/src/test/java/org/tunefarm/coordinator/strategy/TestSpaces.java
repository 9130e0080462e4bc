package org.tunefarm.coordinator.strategy;

import java.util.List;

import org.tunefarm.space.Constraint;
import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/** Small spaces with a constraint and a known cost, for the strategy contract tests. */
final class TestSpaces {
    private TestSpaces() {}

    /** Valid when (a + b) is not a multiple of 3. */
    static final Constraint NOT_MULTIPLE_OF_3 = new Constraint() {
        @Override public boolean test(int[] c, SearchSpace s) {
            return ((Integer) s.value(c, 0) + (Integer) s.value(c, 1)) % 3 != 0;
        }

        @Override public String text() {
            return "(a + b) % 3 != 0";
        }
    };

    /** 8 x 8 x 3 points, two thirds valid. */
    static SearchSpace medium() {
        return new SearchSpace(List.of(Parameter.ints("a", 0, 1, 2, 3, 4, 5, 6, 7), Parameter.ints("b", 0, 1, 2, 3, 4, 5, 6, 7),
                Parameter.strings("c", "x", "y", "z")), List.of(NOT_MULTIPLE_OF_3));
    }

    /** 4 x 3 points, 8 valid. */
    static SearchSpace tiny() {
        return new SearchSpace(List.of(Parameter.ints("a", 0, 1, 2, 3), Parameter.ints("b", 0, 1, 2)), List.of(NOT_MULTIPLE_OF_3));
    }

    /** A smooth bowl with its minimum at a=5, b=2, c=y; every point with a=7 fails. */
    static Result measure(SearchSpace s, long index) {
        int[] c = s.choices(index);
        int a = (Integer) s.value(c, 0), b = (Integer) s.value(c, 1);
        if (a == 7) return Result.failed("RuntimeFailedConfig");
        double penalty = s.dimensions() > 2 && !s.value(c, 2).equals("y") ? 3 : 0;
        return Result.ok(1 + (a - 5) * (a - 5) + (b - 2) * (b - 2) + penalty);
    }
}
