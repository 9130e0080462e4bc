package org.tunefarm.space;

import java.util.List;

/**
 * Parses constraint expressions over parameter names: integer arithmetic (+ - * / %),
 * comparisons (== != < <= > >=), logic (&& || !), parentheses, membership ({@code x in [1, 2]}),
 * integer and quoted string literals. Parsed once into a tree and evaluated without reflection or
 * code execution. Anything else is rejected with the position of the offending token.
 */
public final class Expressions {
    private Expressions() {}

    /** @throws ExpressionException naming the position and the offending token */
    public static Constraint parse(String text, List<Parameter> parameters) {
        throw new UnsupportedOperationException("not yet implemented");
    }
}
