package org.tunefarm.lookup;

import java.util.Locale;

/**
 * What an application knows about the device it runs on, as far as matching it to a table's
 * device classes goes. A tunefarm agent's JVM knows its class string; anything else (a C program
 * through a binding, another JVM, a phone app) fills in what it has, often only the CPU model and
 * the vector width, and matches by profile ({@link DeviceRule}).
 *
 * <pre>{@code
 * Device.ofClass("zen4-2c-avx512-jdk25-5f501851")
 * Device.ofProfile("AMD EPYC 9B14", 512).withIsa(Device.isa("amd64", 512)).withJvmMajor(21)
 * }</pre>
 *
 * @param deviceClass   the tunefarm device class string, or null when unknown
 * @param cpuModel      the processor's name as the OS reports it, or null when unknown
 * @param vectorBits    bits of one vector the kernels use (0: scalar only), or {@link #UNKNOWN}
 * @param isa           vector ISA family and width as in a class name ({@link #isa}), or null
 * @param jvmMajor      the JVM's feature release, or 0 when unknown or not a JVM
 * @param physicalCores physical cores, or 0 when unknown
 */
public record Device(String deviceClass, String cpuModel, int vectorBits, String isa, int jvmMajor, int physicalCores) {

    /** A vector width nobody said. */
    public static final int UNKNOWN = -1;

    public Device {
        if (vectorBits < UNKNOWN) throw new IllegalArgumentException("vectorBits must be 0 or more, or UNKNOWN (-1), got " + vectorBits);
        if (jvmMajor < 0) throw new IllegalArgumentException("jvmMajor must be 0 (unknown) or more, got " + jvmMajor);
        if (physicalCores < 0) throw new IllegalArgumentException("physicalCores must be 0 (unknown) or more, got " + physicalCores);
    }

    /** A device known by its class string alone. */
    public static Device ofClass(String deviceClass) {
        return new Device(deviceClass, null, UNKNOWN, null, 0, 0);
    }

    /** A device known by its CPU model and vector width: what a C program can find out. */
    public static Device ofProfile(String cpuModel, int vectorBits) {
        return new Device(null, cpuModel, vectorBits, null, 0, 0);
    }

    public Device withDeviceClass(String v) { return new Device(v, cpuModel, vectorBits, isa, jvmMajor, physicalCores); }

    public Device withCpuModel(String v, int bits) { return new Device(deviceClass, v, bits, isa, jvmMajor, physicalCores); }

    public Device withIsa(String v) { return new Device(deviceClass, cpuModel, vectorBits, v, jvmMajor, physicalCores); }

    public Device withJvmMajor(int v) { return new Device(deviceClass, cpuModel, vectorBits, isa, v, physicalCores); }

    public Device withPhysicalCores(int v) { return new Device(deviceClass, cpuModel, vectorBits, isa, jvmMajor, v); }

    /**
     * The vector ISA family and width the way a device class names it, from {@code os.arch} and
     * the kernels' vector width: {@code avx256}/{@code avx512} and {@code sse128} on x86,
     * {@code neon128} and {@code sve256}... on ARM, {@code x86scalar}/{@code armscalar} at width 0,
     * else the architecture's letters and digits (at most 8) followed by the width or {@code scalar}.
     */
    public static String isa(String osArch, int vectorBits) {
        if (vectorBits < 0) throw new IllegalArgumentException("vectorBits must be 0 or more, got " + vectorBits);
        String a = osArch.toLowerCase(Locale.ROOT);
        boolean x86 = a.equals("amd64") || a.equals("x86_64") || a.equals("x86") || a.equals("i386");
        boolean arm = a.startsWith("aarch64") || a.startsWith("arm");
        if (vectorBits == 0) return (x86 ? "x86" : arm ? "arm" : slug(a)) + "scalar";
        if (x86) return (vectorBits >= 256 ? "avx" : "sse") + vectorBits;
        if (arm) return (vectorBits > 128 ? "sve" : "neon") + vectorBits;
        return slug(a) + vectorBits;
    }

    private static String slug(String text) {
        String s = text.replaceAll("[^a-z0-9]", "");
        if (s.isEmpty()) s = "unknown";
        return s.length() > 8 ? s.substring(0, 8) : s;
    }
}
