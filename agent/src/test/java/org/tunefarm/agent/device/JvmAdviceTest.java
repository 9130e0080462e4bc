package org.tunefarm.agent.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class JvmAdviceTest {

    @Test void aCurrentJdkWithTheVectorApiNeedsNoAdvice() {
        assertEquals(Optional.empty(), JvmAdvice.advise(25, true, true));
        assertEquals(Optional.empty(), JvmAdvice.advise(21, true, true));
    }

    @Test void java17IsToldThatANewerJdkIsFaster() {
        String advice = JvmAdvice.advise(17, true, true).orElseThrow();
        assertTrue(advice.startsWith("Java 17 runs the kernels, but a JDK 21 or newer"), advice);
    }

    @Test void aJvmWithoutTheModuleIsToldHowToGetTheVectorKernels() {
        String notAdded = JvmAdvice.advise(25, false, true).orElseThrow();
        assertTrue(notAdded.contains("--add-modules jdk.incubator.vector"), notAdded);
        String jlinked = JvmAdvice.advise(17, false, false).orElseThrow();
        assertTrue(jlinked.contains("has no jdk.incubator.vector module") && jlinked.contains("JDK 21 or newer"), jlinked);
    }
}
