package org.tunefarm.coordinator.sweep;

/** A sweep spec that cannot be accepted; {@link #field()} is the dotted path of the field at fault. */
public final class SpecException extends IllegalArgumentException {
    private final String field;

    public SpecException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
    }

    public String field() { return field; }
}
