package org.tunefarm.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeviceProfileTest {

    private static DeviceProfile zen3(int jvmMajor, Map<String, String> labels) {
        return new DeviceProfile("AMD EPYC 7B13", "Zen 3", 2, 2, 32, 512, 32768, 8, "Linux", "amd64",
                "Eclipse Adoptium", jvmMajor, 256, List.of(), labels);
    }

    @Test
    void identicalInputsGiveIdenticalClass() {
        assertEquals(zen3(25, Map.of("rack", "a")).deviceClass(), zen3(25, Map.of("rack", "a")).deviceClass());
    }

    @Test
    void classHasReadablePrefixAndShortHash() {
        assertTrue(zen3(25, Map.of()).deviceClass().matches("zen3-2c-avx256-jdk25-[0-9a-f]{8}"), zen3(25, Map.of()).deviceClass());
    }

    @Test
    void differentJvmMajorGivesDifferentClass() {
        assertNotEquals(zen3(25, Map.of()).deviceClass(), zen3(21, Map.of()).deviceClass());
    }

    @Test
    void labelsChangeClass() {
        assertNotEquals(zen3(25, Map.of()).deviceClass(), zen3(25, Map.of("cooling", "passive")).deviceClass());
    }

    @Test
    void labelAndGpuOrderDoNotChangeClass() {
        DeviceProfile a = new DeviceProfile("m", "x", 1, 1, 0, 0, 0, 1, "Linux", "aarch64", "v", 21, 128,
                List.of("b", "a"), Map.of("k1", "1", "k2", "2"));
        DeviceProfile b = new DeviceProfile("m", "x", 1, 1, 0, 0, 0, 1, "Linux", "aarch64", "v", 21, 128,
                List.of("a", "b"), new java.util.LinkedHashMap<>(Map.of("k2", "2", "k1", "1")));
        assertEquals(a.deviceClass(), b.deviceClass());
        assertTrue(a.deviceClass().startsWith("x-1c-neon128-jdk21-"), a.deviceClass());
    }

    @Test
    void unknownMicroarchitectureFallsBackToModel() {
        DeviceProfile p = new DeviceProfile("AMD EPYC", "unknown", 2, 2, 48, 1024, 32768, 32, "Linux", "amd64", "v", 25, 512, List.of(), Map.of());
        assertTrue(p.deviceClass().startsWith("amdepyc-2c-avx512-jdk25-"), p.deviceClass());
    }

    @Test
    void memoryRoundsToSizeClass() {
        long gib = 1L << 30;
        assertEquals(8, DeviceProfile.memoryClassGiB((long) (7.7 * gib)));
        assertEquals(4, DeviceProfile.memoryClassGiB((long) (3.8 * gib)));
        assertEquals(1, DeviceProfile.memoryClassGiB(gib / 2));
        assertEquals(32, DeviceProfile.memoryClassGiB(25_275_990_016L));
    }

    @Test
    void memoryThatIsNotASizeClassIsRejectedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
                new DeviceProfile("m", "x", 1, 1, 0, 0, 0, 6, "Linux", "amd64", "v", 25, 256, List.of(), Map.of()));
        assertTrue(e.getMessage().startsWith("memoryGiB"), e.getMessage());
    }

    private static DeviceProfile withVectors(String arch, int jvmMajor, int vectorBits) {
        return new DeviceProfile("AMD EPYC 7B13", "Zen 3", 2, 2, 32, 512, 32768, 8, "Linux", arch,
                "Debian", jvmMajor, vectorBits, List.of(), Map.of());
    }

    @Test
    void aJvmWithoutTheVectorApiIsAScalarClassOfItsOwn() {
        String scalar = withVectors("amd64", 17, 0).deviceClass();
        assertTrue(scalar.matches("zen3-2c-x86scalar-jdk17-[0-9a-f]{8}"), scalar);
        assertTrue(withVectors("aarch64", 17, 0).deviceClass().contains("-armscalar-jdk17-"));
        assertNotEquals(scalar, withVectors("amd64", 17, 256).deviceClass());
    }

    @Test
    void aForcedNarrowWidthAndTheJvmVersionEachMakeAClass() {
        String wide = withVectors("amd64", 17, 512).deviceClass();
        String narrow = withVectors("amd64", 17, 128).deviceClass();
        assertTrue(narrow.startsWith("zen3-2c-sse128-jdk17-"), narrow);
        assertNotEquals(wide, narrow);
        assertNotEquals(narrow, withVectors("amd64", 25, 128).deviceClass());
        assertTrue(withVectors("aarch64", 17, 128).deviceClass().startsWith("zen3-2c-neon128-jdk17-"));
    }

    @Test
    void vectorWidthOutsideAnyMachineIsRejectedByName() {
        for (int bits : new int[] {-1, 4096}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> withVectors("amd64", 17, bits));
            assertTrue(e.getMessage().startsWith("vectorBits"), e.getMessage());
        }
    }
}
