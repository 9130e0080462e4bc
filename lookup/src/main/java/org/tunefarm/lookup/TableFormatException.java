package org.tunefarm.lookup;

/**
 * A table document that does not follow {@code tunefarm.table/2}. The message starts with the
 * field at fault, e.g. {@code entries[3].kernel.shape.M: expected a non-negative integer, got "x"}.
 */
public final class TableFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;

    public TableFormatException(String field, String problem) {
        super(field + ": " + problem);
        this.field = field;
    }

    /** The JSON path of the field at fault, e.g. {@code schema} or {@code entries[3].params}. */
    public String field() {
        return field;
    }
}
