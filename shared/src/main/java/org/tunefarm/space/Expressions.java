package org.tunefarm.space;

import java.util.List;
import java.util.Objects;

/**
 * Parses constraint expressions over parameter names: integer arithmetic (+ - * / %, unary -),
 * comparisons (== != < <= > >=), logic (&& || !), parentheses, membership ({@code x in [1, 2]},
 * {@code order in ["ijk", "ikj"]}), integer and double-quoted string literals. Strings can only be
 * compared with == != and in. Parsed once into a type-checked tree and evaluated without
 * reflection or code execution; integers are evaluated as longs, and a division by zero or an
 * overflow makes the constraint false. Anything else is rejected with the position of the
 * offending token, as is nesting deeper than 64 levels.
 */
public final class Expressions {
    private Expressions() {}

    /**
     * @param parameters the space's parameters, in the space's order (names resolve to positions)
     * @throws ExpressionException naming the position and the offending token
     */
    public static Constraint parse(String text, List<Parameter> parameters) {
        Objects.requireNonNull(text, "text");
        return new ParsedConstraint(text, new Parser(text, parameters).parse());
    }
}
