package org.tunefarm.space;

/** A constraint expression that cannot be parsed; {@link #position()} is 0-based in the text. */
public final class ExpressionException extends IllegalArgumentException {
    private final int position;

    public ExpressionException(String message, String text, int position) {
        super(message + " at position " + position + " in '" + text + "'");
        this.position = position;
    }

    public int position() { return position; }
}
