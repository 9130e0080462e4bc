package org.tunefarm.protocol;

/** A message that breaks the protocol; the text names the field at fault. */
public final class ProtocolException extends IllegalArgumentException {
    public ProtocolException(String message) {
        super(message);
    }
}
