package org.tunefarm.agent.kernels.gemm;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MicroKernelSourceTest {

    /** The checked-in kernels are the template's output: a hand edit there, or a template change not regenerated, fails here. */
    @Test void theCheckedInKernelsAreTheTemplatesOutput() throws Exception {
        Path checkedIn = Path.of("src/main/java/org/tunefarm/agent/kernels/gemm/UnrolledMicroKernels.java");
        List<String> generated = MicroKernelSource.generate().lines().toList(), file = Files.readString(checkedIn).lines().toList();
        for (int i = 0; i < Math.max(generated.size(), file.size()); i++) {
            String want = i < generated.size() ? generated.get(i) : "(end of file)", got = i < file.size() ? file.get(i) : "(end of file)";
            if (!want.equals(got)) {
                fail("UnrolledMicroKernels.java differs from MicroKernelSource's output at line " + (i + 1)
                        + ": regenerate it (see MicroKernelSource)\n  template: " + want + "\n  file:     " + got);
            }
        }
    }
}
