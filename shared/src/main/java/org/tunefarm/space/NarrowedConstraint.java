package org.tunefarm.space;

/**
 * A constraint of a wider space applied to a narrowed one: the narrowed point's choices are
 * translated to the wider space's choices ({@code widerChoice[parameter][narrowChoice]}) and the
 * original constraint is asked there. Used for constraints that cannot be re-parsed from text.
 */
record NarrowedConstraint(Constraint original, SearchSpace wider, int[][] widerChoice) implements Constraint {

    @Override public boolean test(int[] choices, SearchSpace space) {
        int[] translated = new int[choices.length];
        for (int p = 0; p < choices.length; p++) translated[p] = widerChoice[p][choices[p]];
        return original.test(translated, wider);
    }

    @Override public String text() {
        return original.text();
    }

    @Override public String toString() {
        return original.text();
    }
}
