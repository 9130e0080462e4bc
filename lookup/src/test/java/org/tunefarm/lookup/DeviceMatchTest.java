package org.tunefarm.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tunefarm.lookup.Fleet.EPYC;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The device rules in order (class, CPU model and width, ISA) and their tie-breaks, per kernel. */
class DeviceMatchTest {

    private static final Table TABLE = Fleet.table();

    /** "class rule" of the gemm fp32 latency kernel the device gets, or "none". */
    private static String gemm(Device device) {
        return TABLE.forDevice(device).kernel("gemm", "fp32").map(k -> k.deviceClass() + " " + k.deviceRule()).orElse("none");
    }

    @Test void theClassItselfComesFirst() {
        assertEquals(Fleet.ZEN_2C + " CLASS", gemm(Device.ofClass(Fleet.ZEN_2C)));
        // Whatever profile comes with it.
        assertEquals(Fleet.ZEN_2C + " CLASS", gemm(Device.ofClass(Fleet.ZEN_2C).withCpuModel("Intel(R) Xeon(R) Platinum 8375C", 512).withIsa("avx512")));
        // A class the farm knows no profile of is reached by its name only.
        assertEquals(Fleet.IMPORTED + " CLASS", gemm(Device.ofClass(Fleet.IMPORTED)));
    }

    @Test void thenTheCpuModelWithTheSameVectorWidth() {
        // Trimmed, case-insensitive; three classes qualify: without JVM or cores, the smallest name.
        assertEquals(Fleet.ZEN_2C + " CPU_MODEL", gemm(Device.ofProfile("  amd epyc 9b14 ", 512)));
        // The same JVM first, then the nearest core count, then the smaller name.
        assertEquals(Fleet.ZEN_4C + " CPU_MODEL", gemm(Device.ofProfile(EPYC, 512).withJvmMajor(21)));
        assertEquals(Fleet.ZEN_8C + " CPU_MODEL", gemm(Device.ofProfile(EPYC, 512).withJvmMajor(21).withPhysicalCores(7)));
        assertEquals(Fleet.ZEN_2C + " CPU_MODEL", gemm(Device.ofProfile(EPYC, 512).withJvmMajor(25).withPhysicalCores(8)));
        assertEquals(Fleet.ZEN_8C + " CPU_MODEL", gemm(Device.ofProfile(EPYC, 512).withPhysicalCores(8)));
        // The width is part of the rule: the same CPU at 256 bits is another class.
        assertEquals(Fleet.ZEN_8C_AVX256 + " CPU_MODEL", gemm(Device.ofProfile(EPYC, 256)));
        // A class string the table lacks (another board's memory, another JVM build) falls through to the profile.
        assertEquals(Fleet.ZEN_2C + " CPU_MODEL", gemm(Device.ofClass("zen4-2c-avx512-jdk25-ffffffff").withCpuModel(EPYC, 512).withJvmMajor(25).withPhysicalCores(2)));
    }

    @Test void thenTheIsa() {
        assertEquals("none", gemm(Device.ofProfile(EPYC, 128)));
        // Four avx512 classes: the smallest name without more to go on, else JVM, then cores.
        assertEquals(Fleet.ICELAKE + " ISA", gemm(Device.ofProfile(EPYC, 128).withIsa("avx512")));
        assertEquals(Fleet.ZEN_4C + " ISA", gemm(Device.ofProfile("Apple M2", 128).withIsa("avx512").withJvmMajor(21)));
        assertEquals(Fleet.ZEN_2C + " ISA", gemm(Device.ofProfile("Apple M2", 128).withIsa("avx512").withJvmMajor(25).withPhysicalCores(2)));
        assertEquals(Fleet.ICELAKE + " ISA", gemm(Device.ofProfile("Apple M2", 128).withIsa("avx512").withJvmMajor(25).withPhysicalCores(4)));
        assertEquals("none", gemm(Device.ofProfile("Cortex-A72", 128).withIsa("neon128")));
        assertEquals("none", gemm(new Device(null, null, Device.UNKNOWN, null, 0, 0)));
    }

    @Test void eachKernelIsMatchedAmongTheClassesThatTunedIt() {
        DeviceTable alone = TABLE.forDevice(Device.ofClass(Fleet.ZEN_2C));
        assertTrue(alone.kernel("conv2d", "fp32").isEmpty());
        DeviceTable withProfile = TABLE.forDevice(Device.ofClass(Fleet.ZEN_2C).withCpuModel(EPYC, 512));
        assertEquals(Fleet.ZEN_2C, withProfile.kernel("gemm", "fp32").orElseThrow().deviceClass());
        KernelIndex conv = withProfile.kernel("conv2d", "fp32").orElseThrow();
        assertEquals(Fleet.ZEN_8C + " CPU_MODEL", conv.deviceClass() + " " + conv.deviceRule());
        Answer a = withProfile.lookup("conv2d", "fp32", java.util.Map.of("C", 32, "H", 112, "W", 112, "K", 64));
        assertEquals(DeviceRule.CPU_MODEL, a.deviceRule());
        assertEquals(Fleet.ZEN_8C, a.deviceClass());
    }

    @Test void theIsaIsNamedAsDeviceClassesNameIt() {
        assertEquals(List.of("avx512", "avx256", "sse128", "x86scalar", "neon128", "sve256", "armscalar", "riscv64128", "riscv64scalar"),
                List.of(Device.isa("amd64", 512), Device.isa("x86_64", 256), Device.isa("amd64", 128), Device.isa("amd64", 0),
                        Device.isa("aarch64", 128), Device.isa("aarch64", 256), Device.isa("arm", 0),
                        Device.isa("riscv64", 128), Device.isa("riscv64", 0)));
        assertThrows(IllegalArgumentException.class, () -> Device.isa("amd64", -1));
        assertThrows(IllegalArgumentException.class, () -> Device.ofProfile(EPYC, -2));
    }
}
