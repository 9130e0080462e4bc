package org.tunefarm.agent.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.kernel.KernelSpecs;

class KernelFamiliesTest {

    @Test void everyKnownSpecHasAFamilyUnderTheSameName() {
        for (KernelSpec spec : KernelSpecs.all()) assertEquals(spec.op(), KernelFamilies.get(spec.op()).spec().op());
        assertEquals(KernelSpecs.all().size(), KernelFamilies.all().size());
    }

    @Test void unknownOperationNamesTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelFamilies.get("conv9d"));
        assertTrue(e.getMessage().contains("gemm"), e.getMessage());
    }
}
