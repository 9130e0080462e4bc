package org.tunefarm.agent.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.kernels.gemm.PackedGemm;

/** Runs twice in the build: at the CPU's preferred width and forced to 128 bits (the agent pom). */
class VectorWidthTest {

    @Test void withoutASettingTheKernelsUseThePreferredWidth() {
        assertEquals(512, VectorWidth.choose(null, 512));
        assertEquals(256, VectorWidth.choose(" ", 256));
    }

    @Test void aForcedWidthNarrowsTheKernels() {
        assertEquals(128, VectorWidth.choose("128", 512));
        assertEquals(256, VectorWidth.choose(" 256 ", 512));
        assertEquals(128, VectorWidth.choose("128", 128));
    }

    @Test void aWidthThisCpuCannotRunIsRefusedNamingTheSetting() {
        for (String bad : new String[] {"96", "64", "1024", "abc", "-128", "128.0"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> VectorWidth.choose(bad, 512), bad);
            assertTrue(e.getMessage().startsWith(VectorWidth.PROPERTY + ": "), e.getMessage());
        }
        IllegalArgumentException wider = assertThrows(IllegalArgumentException.class, () -> VectorWidth.choose("512", 256));
        assertTrue(wider.getMessage().contains("wider than this CPU's vectors (256 bits)"), wider.getMessage());
    }

    @Test void theKernelsRunAtTheWidthThisJvmWasGiven() {
        // Surefire adds the module, so the Vector API is there.
        assertTrue(VectorWidth.available());
        String forced = System.getProperty(VectorWidth.PROPERTY);
        int expected = forced == null ? FloatVector.SPECIES_PREFERRED.vectorBitSize() : Integer.parseInt(forced);
        assertEquals(expected, VectorWidth.bits());
        assertEquals(expected, VectorWidth.floats().vectorBitSize());
        assertEquals(expected / Float.SIZE, PackedGemm.lanes(), "the GEMM and conv micro-kernels use the same species");
    }
}
