package org.tunefarm.lookup;

/** How the asked shape was matched to a tuned shape of the table. */
public enum ShapeRule {
    /** The shape was tuned: distance 0. */
    EXACT,
    /** The nearest tuned shape, within the view's maximum distance. */
    NEAREST,
    /** Nothing tuned was near enough: the family's default parameters. */
    DEFAULT
}
