package org.tunefarm.agent.kernels.sleep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.agent.kernels.KernelFamily;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.SleepSpec;

class SleepFamilyTest {

    private final SleepFamily family = new SleepFamily();
    private final KernelKey key = new KernelKey("sleep", Map.of("unitUs", 1000), "fp32");

    @Test void sleepsAtLeastTheSpecifiedTimeAndIsNeverWrong() {
        KernelFamily.Workload w = family.workload(key, 1);
        Map<String, Object> params = Map.of("a", 5, "b", 13, "mode", "fast"); // 3 units: 3 ms
        try (KernelFamily.Candidate c = family.candidate(w, params)) {
            long t = System.nanoTime();
            c.run();
            long micros = (System.nanoTime() - t) / 1000;
            assertTrue(micros >= SleepSpec.sleepMicros(key, params), micros + " µs");
            assertEquals(0, c.maxError());
            assertEquals(0, w.errorBound());
        }
    }

    @Test void missingParameterIsRejected() {
        KernelFamily.Workload w = family.workload(key, 1);
        assertThrows(IllegalArgumentException.class, () -> family.candidate(w, Map.of("a", 5)));
    }
}
