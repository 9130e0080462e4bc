package org.tunefarm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.tunefarm.protocol.Protocol;

/**
 * OpenBLAS {@code cblas_sgemm}, timed by a small C program built against Debian's
 * libopenblas-dev. Absent (with the reason) when gcc, the header or the library is missing.
 */
final class OpenBlas {

    private final NativeProgram program;
    private final String missing;

    private OpenBlas(NativeProgram program, String missing) {
        this.program = program;
        this.missing = missing;
    }

    static OpenBlas find() {
        Path header = NativeProgram.CBLAS_HEADERS.stream().filter(Files::isRegularFile).findFirst().orElse(null);
        if (header == null) return new OpenBlas(null, "no cblas.h (install libopenblas-dev)");
        NativeProgram.Built b = NativeProgram.compile("sgemm", List.of("-I" + header.getParent()), List.of("-lopenblas", "-lm"));
        return new OpenBlas(b.program(), b.missing() == null ? null : b.missing() + " (is libopenblas-dev installed?)");
    }

    /** Why OpenBLAS cannot be measured here, or null when it can. */
    String missing() {
        return missing;
    }

    /** Median ns per call of C = A·B, after verifying a sample of C against double precision. */
    double medianNs(int m, int n, int k, int threads, int samples, double minSampleMs) throws IOException {
        String out = program.run(List.of(String.valueOf(m), String.valueOf(n), String.valueOf(k), String.valueOf(threads),
                String.valueOf(samples), String.valueOf(minSampleMs)), 600);
        JsonNode j = Protocol.JSON.readTree(out.lines().reduce((a, b) -> b).orElse("{}"));
        if (!j.path("correct").asBoolean(false)) throw new IOException("cblas_sgemm gave a wrong answer: " + out);
        return j.path("median_ns").asDouble();
    }
}
