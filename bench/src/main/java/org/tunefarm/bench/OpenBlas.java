package org.tunefarm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.Conv2dSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Stats;
import org.tunefarm.protocol.Protocol;

/**
 * OpenBLAS {@code cblas_sgemm}, timed by small C programs built against Debian's libopenblas-dev:
 * plain GEMM, and conv2d as im2col + GEMM (the baseline a conv kernel has to beat). Absent (with
 * the reason) when gcc, the header or the library is missing.
 */
final class OpenBlas {

    private final NativeProgram program;
    private final String missing;
    private final NativeProgram conv;
    private final String convMissing;
    /** The kernel set every call runs on unless it names one, or null for OpenBLAS's own pick. */
    private final String forcedCore;

    private OpenBlas(NativeProgram program, String missing, NativeProgram conv, String convMissing, String forcedCore) {
        this.program = program;
        this.missing = missing;
        this.conv = conv;
        this.convMissing = convMissing;
        this.forcedCore = forcedCore;
    }

    /** OpenBLAS on kernel set {@code core} ({@code OPENBLAS_CORETYPE}) for every call, GEMM and conv, or on its own pick where null. */
    static OpenBlas find(String core) {
        Path header = NativeProgram.CBLAS_HEADERS.stream().filter(Files::isRegularFile).findFirst().orElse(null);
        if (header == null) return new OpenBlas(null, "no cblas.h (install libopenblas-dev)", null, "no cblas.h (install libopenblas-dev)", core);
        NativeProgram.Built b = NativeProgram.compile("sgemm", List.of("-I" + header.getParent()), List.of("-lopenblas", "-lm"));
        String why = b.missing() == null ? null : b.missing() + " (is libopenblas-dev installed?)";
        NativeProgram.Built c = NativeProgram.compile("conv_im2col", List.of("-I" + header.getParent()), List.of("-lopenblas", "-lm"));
        return new OpenBlas(b.program(), why, c.program(), c.missing() == null ? null : c.missing() + " (is libopenblas-dev installed?)", core);
    }

    private Map<String, String> env(String core) {
        String set = core != null ? core : forcedCore;
        return set == null ? Map.of() : Map.of(CORE_TYPE, set);
    }

    /** Why OpenBLAS cannot be measured here, or null when it can. */
    String missing() {
        return missing;
    }

    /** Why the im2col + OpenBLAS conv baseline cannot be measured here, or null when it can. */
    String convMissing() {
        return convMissing;
    }

    /**
     * One conv2d call (NCHW, im2col + cblas_sgemm per image), after verifying a sample of outputs
     * against a direct convolution in double precision; sampled and summarised as {@link #gemm}.
     */
    Stats conv(KernelKey key, int threads, int samples, double minSampleMs) throws IOException {
        List<String> args = new ArrayList<>();
        for (String d : new Conv2dSpec().dimensions()) args.add(String.valueOf(key.dim(d)));
        args.addAll(List.of(String.valueOf(threads), String.valueOf(samples), String.valueOf(minSampleMs)));
        return conv.sample(args, "conv im2col + cblas_sgemm", env(null));
    }

    /**
     * C = A·B timed by the C program, after verifying a sample of C against double precision: its
     * samples, taken by the harness's rule, through the harness's statistic ({@link Stats#withoutInterference}).
     */
    Stats gemm(int m, int n, int k, int threads, int samples, double minSampleMs) throws IOException {
        return gemm(m, n, k, threads, samples, minSampleMs, null);
    }

    /** As above, on the kernel set {@code core} ({@code OPENBLAS_CORETYPE}), or the run's (see {@link #find(String)}) where null. */
    Stats gemm(int m, int n, int k, int threads, int samples, double minSampleMs, String core) throws IOException {
        return program.sample(List.of(String.valueOf(m), String.valueOf(n), String.valueOf(k), String.valueOf(threads),
                String.valueOf(samples), String.valueOf(minSampleMs)), "cblas_sgemm", env(core));
    }

    /** The variable with which OpenBLAS (built with DYNAMIC_ARCH, as Debian's is) takes a kernel set other than its own pick. */
    static final String CORE_TYPE = "OPENBLAS_CORETYPE";

    /**
     * The kernel set OpenBLAS runs on here, {@code core} forced or (null) the run's; null where it
     * cannot run. Debian's 0.3.21 picks its AVX2 set, "Haswell", on a Zen 5, AVX-512 and all,
     * where its AVX-512 set, "SkylakeX", runs its 512^3 GEMM about twice as fast.
     */
    String core(String core) {
        if (missing != null) return null;
        try {
            String out = program.run(List.of("8", "8", "8", "1", "1", "0.01"), 60, env(core));
            return Protocol.JSON.readTree(out.lines().reduce((a, b) -> b).orElse("{}")).path("core").asText(null);
        } catch (IOException e) {
            return null;
        }
    }
}
