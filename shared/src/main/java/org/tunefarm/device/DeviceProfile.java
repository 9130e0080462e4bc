package org.tunefarm.device;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What an agent's hardware and JVM are, as far as kernel speed is concerned. Read once by the
 * agent; identical boards produce equal profiles and so share a {@link #deviceClass()}.
 *
 * @param cpuModel          processor name, e.g. {@code AMD EPYC 7B13}
 * @param microarchitecture e.g. {@code Zen 3}, or {@code unknown}
 * @param physicalCores     physical cores
 * @param logicalCores      hardware threads
 * @param l1dKiB            level-1 data cache per core, KiB (0 when unknown)
 * @param l2KiB             level-2 cache, KiB (0 when unknown)
 * @param l3KiB             level-3 cache, KiB (0 when absent)
 * @param memoryGiB         total memory as a size class: the nearest power of two, at least 1
 * @param os                operating-system family, e.g. {@code Linux}, {@code Android}
 * @param arch              {@code os.arch}, e.g. {@code amd64}, {@code aarch64}
 * @param jvmVendor         {@code java.vm.vendor}
 * @param jvmMajor          feature release, e.g. 25
 * @param vectorBits        bits of one vector of the agent's kernels: the Vector API's preferred
 *                          float species, or the width forced by {@code -Dtunefarm.vectorBits};
 *                          0 where the JVM lacks the Vector API and only scalar kernels run
 * @param gpus              GPU names, sorted
 * @param labels            user labels (e.g. {@code cooling=fan}); they are part of the class
 */
public record DeviceProfile(
        String cpuModel,
        String microarchitecture,
        int physicalCores,
        int logicalCores,
        int l1dKiB,
        int l2KiB,
        int l3KiB,
        int memoryGiB,
        String os,
        String arch,
        String jvmVendor,
        int jvmMajor,
        int vectorBits,
        List<String> gpus,
        Map<String, String> labels) {

    /** Wider than any vector unit (SVE's architectural limit). */
    public static final int MAX_VECTOR_BITS = 2048;
    /** More hardware threads than any machine has. */
    public static final int MAX_CORES = 16_384;
    /** Longer than any CPU model, OS or vendor name. */
    public static final int MAX_TEXT = 256;

    public DeviceProfile {
        Objects.requireNonNull(cpuModel, "cpuModel");
        Objects.requireNonNull(microarchitecture, "microarchitecture");
        Objects.requireNonNull(os, "os");
        Objects.requireNonNull(arch, "arch");
        Objects.requireNonNull(jvmVendor, "jvmVendor");
        if (physicalCores < 1) throw new IllegalArgumentException("physicalCores must be at least 1, got " + physicalCores);
        if (logicalCores < physicalCores) throw new IllegalArgumentException("logicalCores (" + logicalCores + ") must be at least physicalCores (" + physicalCores + ")");
        if (Integer.bitCount(memoryGiB) != 1) throw new IllegalArgumentException("memoryGiB must be a power of two (a size class), got " + memoryGiB);
        // Bounds no real machine reaches: a profile sizes search spaces (threads 1..logicalCores) and is stored and shown.
        if (vectorBits < 0 || vectorBits > MAX_VECTOR_BITS) throw new IllegalArgumentException("vectorBits must be 0 to " + MAX_VECTOR_BITS + ", got " + vectorBits);
        if (logicalCores > MAX_CORES) throw new IllegalArgumentException("logicalCores must be at most " + MAX_CORES + ", got " + logicalCores);
        for (String s : new String[] {cpuModel, microarchitecture, os, arch, jvmVendor}) {
            if (s.length() > MAX_TEXT) throw new IllegalArgumentException("profile text longer than " + MAX_TEXT + " characters");
        }
        if (Objects.requireNonNull(gpus, "gpus").size() > 64 || Objects.requireNonNull(labels, "labels").size() > 64) {
            throw new IllegalArgumentException("at most 64 gpus and 64 labels");
        }
        for (String g : gpus) if (g == null || g.length() > MAX_TEXT) throw new IllegalArgumentException("gpu names must be 1 to " + MAX_TEXT + " characters");
        for (var e : labels.entrySet()) {
            if (e.getKey() == null || e.getValue() == null || e.getKey().length() > MAX_TEXT || e.getValue().length() > MAX_TEXT) {
                throw new IllegalArgumentException("labels must be non-null and at most " + MAX_TEXT + " characters");
            }
        }
        gpus = List.copyOf(gpus).stream().sorted().toList();
        labels = java.util.Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(labels, "labels")));
    }

    /** Total memory in bytes to its size class: the nearest power of two in GiB, at least 1. */
    public static int memoryClassGiB(long bytes) {
        double gib = bytes / (double) (1L << 30);
        if (gib <= 1) return 1;
        long exponent = Math.round(Math.log(gib) / Math.log(2));
        return 1 << Math.min(30, exponent);
    }

    /**
     * A stable short fingerprint such as {@code zen3-2c-avx256-jdk25-1f0c9a2e}: a readable prefix,
     * then a hash of every field that changes kernel speed. Nothing volatile (hostname, free
     * memory, clock) goes in, so identical boards with the same JVM and labels share a class.
     */
    public String deviceClass() {
        String prefix = slug(microarchitecture.isBlank() || microarchitecture.equalsIgnoreCase("unknown") ? cpuModel : microarchitecture, 16)
                + "-" + physicalCores + "c-" + isa() + "-jdk" + jvmMajor;
        return prefix + "-" + fingerprint();
    }

    /** The vector registers a kernel can assume where the device's ISA is not known (a sweep log line without a profile). */
    public static final int REGISTERS_UNKNOWN = 32;

    /**
     * Architectural vector registers of the kernels' vectors, which bound the accumulators a
     * register-blocked micro-kernel can hold: 32 on ARM (NEON and SVE) and for AVX-512; 16 on x86
     * at 256 bits (AVX2's file; an AVX-512 machine forced to 256 bits is held to it too, since its
     * class cannot tell the two apart); 32 on x86 at 128 bits, where the width is forced to stand in
     * for NEON's 32 registers (an AVX-512 machine has them; on an AVX2 machine the larger tiles
     * spill and measure slow); 32 elsewhere; 0 without the Vector API.
     */
    public int vectorRegisters() {
        return registers(arch, vectorBits);
    }

    /** As {@link #vectorRegisters()}, for an {@code os.arch} and a width. */
    public static int registers(String arch, int vectorBits) {
        if (vectorBits == 0) return 0;
        String a = arch.toLowerCase(Locale.ROOT);
        boolean x86 = a.equals("amd64") || a.equals("x86_64") || a.equals("x86") || a.equals("i386");
        return x86 && vectorBits == 256 ? 16 : 32;
    }

    /**
     * Vector ISA family and width, e.g. {@code avx256}, {@code neon128}, {@code sve512}; without
     * the Vector API, the architecture and {@code scalar}, e.g. {@code x86scalar}, {@code armscalar}.
     * Part of the class name, and shown in the table's classes, so a device matches by ISA family.
     */
    public String isa() {
        String a = arch.toLowerCase(Locale.ROOT);
        boolean x86 = a.equals("amd64") || a.equals("x86_64") || a.equals("x86") || a.equals("i386");
        boolean arm = a.startsWith("aarch64") || a.startsWith("arm");
        if (vectorBits == 0) return (x86 ? "x86" : arm ? "arm" : slug(a, 8)) + "scalar";
        if (x86) return (vectorBits >= 256 ? "avx" : "sse") + vectorBits;
        if (arm) return (vectorBits > 128 ? "sve" : "neon") + vectorBits;
        return slug(a, 8) + vectorBits;
    }

    private String fingerprint() {
        // Field order is part of the class's definition: changing it reclassifies every device.
        String canonical = String.join("\n",
                cpuModel, microarchitecture, String.valueOf(physicalCores), String.valueOf(logicalCores),
                String.valueOf(l1dKiB), String.valueOf(l2KiB), String.valueOf(l3KiB), String.valueOf(memoryGiB),
                os, arch, jvmVendor, String.valueOf(jvmMajor), String.valueOf(vectorBits),
                String.join("\u0000", gpus), labels.toString());
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JRE has SHA-256", e);
        }
    }

    private static String slug(String text, int max) {
        String s = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        if (s.isEmpty()) s = "unknown";
        return s.length() > max ? s.substring(0, max) : s;
    }
}
