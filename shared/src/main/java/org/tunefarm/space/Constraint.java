package org.tunefarm.space;

/**
 * A restriction on which points of a {@link SearchSpace} are valid. Implementations are pure
 * and thread-safe. Parsed expressions ({@link Expressions#parse}) are the usual kind; a replayed
 * space uses a membership set instead.
 */
public interface Constraint {

    /**
     * @param choices the choice of each parameter, in the space's parameter order
     * @param space   the space the choices belong to (for value lookup)
     */
    boolean test(int[] choices, SearchSpace space);

    /** Human-readable form, shown in errors and in a sweep's status. */
    String text();
}
