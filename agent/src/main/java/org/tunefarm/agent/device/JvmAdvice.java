package org.tunefarm.agent.device;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.tunefarm.agent.kernels.VectorWidth;

/**
 * What the agent says, once at start, when another JVM would make its kernels faster. The agent
 * runs on Java 17 (all Debian 12 and Raspberry Pi OS 12 offer), but 17's C2 compiles the Vector
 * API micro-kernels far worse than 21 and 25 do (one GEMM micro-kernel: 31-38 GFLOP/s on 17
 * against 85-93 on Temurin 25, on the same machine), and without the incubator module only the
 * scalar kernels run at all. Either way the device class shows it (jdk17, x86scalar), so it is
 * measured as a different device, not as a slow one.
 */
public final class JvmAdvice {

    /** The first feature release whose JIT the vector kernels were tuned on. */
    static final int FAST_FEATURE = 21;

    private JvmAdvice() {}

    /** The advice for this JVM, if any. */
    public static Optional<String> forThisJvm() {
        return advise(Runtime.version().feature(), VectorWidth.available(), VectorWidth.inImage());
    }

    /**
     * @param feature  the JVM's feature release, e.g. 17
     * @param added    whether the Vector API module is in the boot layer
     * @param inImage  whether the JVM's image has the module at all
     */
    static Optional<String> advise(int feature, boolean added, boolean inImage) {
        List<String> notes = new ArrayList<>();
        if (!added) {
            notes.add(inImage
                    ? "started without --add-modules " + VectorWidth.MODULE + ": only the scalar kernels run; add the option for the vector kernels"
                    : "this Java has no " + VectorWidth.MODULE + " module (a jlinked JRE?): only the scalar kernels run; a full JRE or JDK 17+ runs the vector kernels");
        }
        if (feature < FAST_FEATURE) {
            notes.add("Java " + feature + " runs the kernels, but a JDK " + FAST_FEATURE
                    + " or newer (Temurin 25 best) compiles the vector kernels up to 2-3x faster");
        }
        return notes.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", notes));
    }
}
