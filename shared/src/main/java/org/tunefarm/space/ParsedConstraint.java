package org.tunefarm.space;

/**
 * A constraint parsed from text: the original text and its checked tree. A value that cannot be
 * computed (division by zero, long overflow) makes the point invalid rather than failing the sweep.
 */
record ParsedConstraint(String text, Expr root) implements Constraint {

    @Override public boolean test(int[] choices, SearchSpace space) {
        try {
            return root.bool(choices, space);
        } catch (ArithmeticException undefined) {
            return false;
        }
    }

    @Override public String toString() {
        return text;
    }
}
