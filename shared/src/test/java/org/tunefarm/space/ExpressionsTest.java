package org.tunefarm.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExpressionsTest {

    // One value per parameter, so point 0 is the only point: a=1, b=2, c=3, zero=0, order="ijk".
    private static final List<Parameter> PARAMS = List.of(
            Parameter.ints("a", 1), Parameter.ints("b", 2), Parameter.ints("c", 3), Parameter.ints("zero", 0),
            Parameter.strings("order", "ijk"));
    private static final SearchSpace POINT = new SearchSpace(PARAMS, List.of());

    private static boolean eval(String text) {
        return Expressions.parse(text, PARAMS).test(POINT.choices(0), POINT);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "a + b * c == 7", "(a + b) * c == 9", "a - b - c == -4", "c / b * b == 2", "c % b == 1",
            "-a * 2 == -2", "- -a == 1", "-7 / 2 == -3", "-7 % 2 == -1", "a + b < c + 1", "c >= 3 && c <= 3",
            "a == 1 || b == 0 && c == 0", "!(a == 2)", "!(a == 1) == (b == 3)", "a != b", "b > a", "2 * (a + c) == 8",
            "a  ==\t1\n"})
    void arithmeticComparisonAndLogicFollowUsualPrecedence(String text) {
        assertTrue(eval(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"(a == 1 || b == 0) && c == 0", "a == 0 || b == 2 && c == 0", "!(a < b)", "a * b > c"})
    void falseExpressionsAreFalse(String text) {
        assertFalse(eval(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a in [1, 2, 4]", "a + 1 in [2]", "zero in [-1, 0]", "!(a in [5, 6])", "order in [\"ikj\", \"ijk\"]",
            "a in [1] && b in [2]"})
    void membershipTestsTheValueAgainstTheList(String text) {
        assertTrue(eval(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a in [2, 4]", "a in []", "order in [\"kji\"]", "a in [-1]"})
    void membershipIsFalseForValuesNotListed(String text) {
        assertFalse(eval(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"order == \"ijk\"", "\"ijk\" == order", "order != \"kji\"", "order == order", "\"a\\\"b\" != order"})
    void stringParametersCompareByEquality(String text) {
        assertTrue(eval(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a / zero == 1", "a % zero == 0", "!(a / zero == 1)", "a / zero != 1",
            "9223372036854775807 + a > 0", "-9223372036854775807 - a - a < 0"})
    void divisionByZeroOrOverflowMakesTheConstraintFalse(String text) {
        assertFalse(eval(text), text);
    }

    @Test
    void shortCircuitGuardsADivisionByZero() {
        assertTrue(eval("zero == 0 || a / zero == 1"));
        assertFalse(eval("zero != 0 && a / zero == 1"));
    }

    @Test
    void textIsTheOriginalText() {
        String text = "a  *  b <= 4096";
        assertEquals(text, Expressions.parse(text, PARAMS).text());
    }

    static Stream<Arguments> rejections() {
        return Stream.of(
                Arguments.of("a.b == 1", 1, "'.'"),
                Arguments.of("Math.max(a, b) > 1", 0, "'Math'"),
                Arguments.of("a(1) == 1", 0, "'a'"),
                Arguments.of("a = 1", 2, "'='"),
                Arguments.of("a == 1; b == 2", 6, "';'"),
                Arguments.of("`a` == 1", 0, "'`'"),
                Arguments.of("a == 1 b", 7, "'b'"),
                Arguments.of("a == 1 )", 7, "')'"),
                Arguments.of("(a == 1", 7, "end of expression"),
                Arguments.of("", 0, "end of expression"),
                Arguments.of("a # 1", 2, "'#'"),
                Arguments.of("a € 1", 2, "'€'"),
                Arguments.of("a & b", 2, "'&'"),
                Arguments.of("a == 1 | b == 2", 7, "'|'"),
                Arguments.of("zz == 1", 0, "'zz'"),
                Arguments.of("order + 1 == 2", 6, "'+'"),
                Arguments.of("-order == 1", 0, "'-'"),
                Arguments.of("order < \"b\"", 6, "'<'"),
                Arguments.of("a == \"x\"", 2, "'=='"),
                Arguments.of("!a == 1", 0, "'!'"),
                Arguments.of("a == 1 && b", 7, "'&&'"),
                Arguments.of("a < b < c", 6, "'<'"),
                Arguments.of("  a + 1", 2, "boolean"),
                Arguments.of("order", 0, "boolean"),
                Arguments.of("a in [1, \"x\"]", 9, "'x'"),
                Arguments.of("order in [1]", 10, "'1'"),
                Arguments.of("a in 3", 5, "'3'"),
                Arguments.of("a in [b]", 6, "'b'"),
                Arguments.of("(a == 1) in [1]", 9, "'in'"),
                Arguments.of("a == \"abc", 5, "'\"abc'"),
                Arguments.of("a == 99999999999999999999", 5, "'99999999999999999999'"));
    }

    @ParameterizedTest
    @MethodSource("rejections")
    void rejectionNamesTheOffendingTokenAndItsPosition(String text, int position, String token) {
        ExpressionException e = assertThrows(ExpressionException.class, () -> Expressions.parse(text, PARAMS));
        assertEquals(position, e.position(), e.getMessage());
        assertTrue(e.getMessage().contains(token), e.getMessage());
        assertTrue(e.getMessage().contains("at position " + position), e.getMessage());
    }

    @Test
    void nestingUpToTheLimitIsAccepted() {
        int limit = Parser.MAX_DEPTH;
        assertTrue(eval("(".repeat(limit) + "a == 1" + ")".repeat(limit)));
        // Each minus and the comparison add a level to the tree: 62 + leaf + '==' is exactly 64.
        assertTrue(eval("-".repeat(limit - 2) + "a == 1"));
        assertTrue(eval("a" + " + 1".repeat(limit - 2) + " > 0"));
    }

    @ParameterizedTest
    @ValueSource(ints = {65, 100_000})
    void deeplyNestedExpressionsAreRejectedWithoutOverflowingTheStack(int depth) {
        List<String> hostile = List.of(
                "(".repeat(depth) + "a == 1" + ")".repeat(depth),
                "-".repeat(depth) + "a == 1",
                "!".repeat(depth) + "(a == 1)",
                "a" + " + 1".repeat(depth) + " > 0",
                "a == 1" + " && a == 1".repeat(depth));
        for (String text : hostile) {
            ExpressionException e = assertThrows(ExpressionException.class, () -> Expressions.parse(text, PARAMS));
            assertTrue(e.getMessage().contains("nested deeper than " + Parser.MAX_DEPTH), e.getMessage().substring(0, 80));
        }
    }
}
