package org.tunefarm.agent.kernels.gemm;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import jdk.incubator.vector.FloatVector;

/**
 * The vector multiply-add the kernels use. Where the CPU has no FMA instruction (x86 before
 * AVX2, or a JVM run with -XX:-UseFMA) C2 does not compile a vector {@code fma()} to SIMD and it
 * falls back to per-lane Java code, hundreds of times slower; a multiply then an add compiles to
 * SIMD on every vector ISA, at the cost of one more rounding, which the error bound covers.
 */
final class Fma {

    /** A constant, so C2 folds the branch in {@link #madd} away. */
    static final boolean FUSED = hardwareFma();

    private Fma() {}

    /** {@code a * b + c}. */
    static FloatVector madd(FloatVector a, FloatVector b, FloatVector c) {
        return FUSED ? a.fma(b, c) : a.mul(b).add(c);
    }

    /** HotSpot says whether it uses FMA; any other JVM is assumed to. */
    private static boolean hardwareFma() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return vm == null || !"false".equals(vm.getVMOption("UseFMA").getValue());
        } catch (RuntimeException | LinkageError e) {
            return true;
        }
    }
}
