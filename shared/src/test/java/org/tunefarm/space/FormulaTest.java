package org.tunefarm.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FormulaTest {

    @Test void aFormulaEvaluatesOverNamedIntegers() {
        Formula f = Formula.parse("2*M*N*K + (M - 1) / 2", List.of("M", "N", "K"));
        assertEquals(2L * 3 * 4 * 5 + 1, f.evaluate(Map.of("M", 3, "N", 4, "K", 5)));
        assertEquals(7, Formula.parse("7", List.of()).evaluate(Map.of()));
    }

    @Test void unknownNamesCallsAndBooleansAreRefused() {
        assertThrows(ExpressionException.class, () -> Formula.parse("2*M*X", List.of("M")));
        assertThrows(ExpressionException.class, () -> Formula.parse("exec(M)", List.of("M")));
        assertThrows(ExpressionException.class, () -> Formula.parse("M > 2", List.of("M")));
    }

    @Test void overflowIsAnArithmeticFailure() {
        Formula f = Formula.parse("M*M*M*M*M", List.of("M"));
        assertThrows(ArithmeticException.class, () -> f.evaluate(Map.of("M", 1 << 20)));
    }
}
