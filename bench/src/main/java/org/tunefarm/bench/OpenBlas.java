package org.tunefarm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    private OpenBlas(NativeProgram program, String missing, NativeProgram conv, String convMissing) {
        this.program = program;
        this.missing = missing;
        this.conv = conv;
        this.convMissing = convMissing;
    }

    static OpenBlas find() {
        Path header = NativeProgram.CBLAS_HEADERS.stream().filter(Files::isRegularFile).findFirst().orElse(null);
        if (header == null) return new OpenBlas(null, "no cblas.h (install libopenblas-dev)", null, "no cblas.h (install libopenblas-dev)");
        NativeProgram.Built b = NativeProgram.compile("sgemm", List.of("-I" + header.getParent()), List.of("-lopenblas", "-lm"));
        String why = b.missing() == null ? null : b.missing() + " (is libopenblas-dev installed?)";
        NativeProgram.Built c = NativeProgram.compile("conv_im2col", List.of("-I" + header.getParent()), List.of("-lopenblas", "-lm"));
        return new OpenBlas(b.program(), why, c.program(), c.missing() == null ? null : c.missing() + " (is libopenblas-dev installed?)");
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
        return checked(conv.run(args, 600), "conv im2col + cblas_sgemm");
    }

    /**
     * C = A·B timed by the C program, after verifying a sample of C against double precision: its
     * samples, taken by the harness's rule, through the harness's statistic ({@link Stats#withoutInterference}).
     */
    Stats gemm(int m, int n, int k, int threads, int samples, double minSampleMs) throws IOException {
        return checked(program.run(List.of(String.valueOf(m), String.valueOf(n), String.valueOf(k), String.valueOf(threads),
                String.valueOf(samples), String.valueOf(minSampleMs)), 600), "cblas_sgemm");
    }

    /** A verifying program's samples; throws when its answer was wrong. */
    static Stats checked(String out, String what) throws IOException {
        JsonNode j = last(out);
        if (!j.path("correct").asBoolean(false)) throw new IOException(what + " gave a wrong answer: " + out);
        return samples(j, out);
    }

    /** The printed samples (ns per call) as the harness's statistics; samples set aside as preempted count as outliers. */
    static Stats samples(JsonNode j, String out) throws IOException {
        JsonNode s = j.path("samples_ns");
        if (!s.isArray() || s.isEmpty()) throw new IOException("no samples_ns in: " + out);
        double[] ns = new double[s.size()];
        for (int i = 0; i < ns.length; i++) ns[i] = s.get(i).asDouble();
        return Stats.withoutInterference(ns, j.path("calls_per_sample").asInt(1)).settingAside(j.path("preempted").asInt(0));
    }

    static JsonNode last(String out) throws IOException {
        return Protocol.JSON.readTree(out.lines().reduce((a, b) -> b).orElse("{}"));
    }

}
