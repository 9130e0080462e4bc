package org.tunefarm.lookup;

/**
 * A device class's readable profile, as the table's {@code classes} object carries it: what a
 * device that cannot compute the class string is matched on. Fields the document lacks are null,
 * 0, or {@link Device#UNKNOWN} for the vector width.
 */
public record ClassProfile(
        String deviceClass,
        String cpuModel,
        String microarchitecture,
        int physicalCores,
        int logicalCores,
        String os,
        String arch,
        String jvmVendor,
        int jvmMajor,
        int vectorBits,
        String isa) {}
