package org.tunefarm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.tunefarm.agent.kernels.VectorWidth;

/**
 * The machine's theoretical fp32 peak: cores x clock x FMA pipes x lanes x 2 flops per FMA.
 * Lanes come from the kernels' species ({@link VectorWidth}: preferred, or forced narrower); the clock from a
 * dependent-add loop (C, via gcc) or else /proc/cpuinfo; two FMA pipes per core is an assumption
 * (true of Zen 3-5 and of Intel server cores with two 512-bit units), stated in the output.
 */
record Peak(int cores, double clockGhz, String clockSource, int lanes, int fmaPipes) {

    static final int FMA_PIPES = 2;

    static Peak measure() {
        int cores = Runtime.getRuntime().availableProcessors();
        int lanes = VectorWidth.floats().length();
        NativeProgram.Built clock = NativeProgram.compile("clock", List.of(), List.of());
        if (clock.program() != null) {
            try {
                return new Peak(cores, Double.parseDouble(clock.program().run(List.of(), 60)), "dependent-add loop", lanes, FMA_PIPES);
            } catch (IOException | NumberFormatException e) {
                // fall through to cpuinfo
            }
        }
        return new Peak(cores, cpuinfoGhz(), "/proc/cpuinfo (clock loop unavailable: " + clock.missing() + ")", lanes, FMA_PIPES);
    }

    /** GFLOP/s with {@code threads} cores busy. */
    double gflops(int threads) {
        return Math.min(threads, cores) * clockGhz * fmaPipes * lanes * 2;
    }

    String describe() {
        return String.format(Locale.ROOT, "%d cores x %.2f GHz (%s) x %d FMA pipes (assumed) x %d fp32 lanes x 2 = %.0f GFLOP/s",
                cores, clockGhz, clockSource, fmaPipes, lanes, gflops(cores));
    }

    private static double cpuinfoGhz() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("cpu MHz"))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.indexOf(':') + 1).strip())).max().orElse(0) / 1000;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }
}
