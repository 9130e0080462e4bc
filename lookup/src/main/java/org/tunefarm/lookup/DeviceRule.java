package org.tunefarm.lookup;

/**
 * How the device an application runs on was matched to a device class of the table, in the
 * order the rules are tried.
 */
public enum DeviceRule {
    /** The device's class string is a class of the table. */
    CLASS,
    /** A class with the same CPU model (trimmed, case-insensitive) and the same vector width. */
    CPU_MODEL,
    /** A class with the same vector ISA family and width, e.g. {@code avx512}, {@code neon128}. */
    ISA
}
