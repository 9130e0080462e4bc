package org.tunefarm.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.space.SearchSpace;

/**
 * A recorded space as a kernel family the farm can sweep: operation {@code replay.<file stem>}
 * (e.g. {@code replay.gemm_RTX_3090}), its search space the configurations present in the
 * Kernel Tuner cache file. The recording was made for one problem size, so the shape carries no
 * size: it has one dimension {@code n}, normally 1 ({@link #SHAPE}), because a {@link KernelKey}'s
 * shape holds integers and cannot name a file. Every {@code n} is the same recorded space, so
 * {@code n} works as a replicate number: a sweep over shapes {@code n = 1..R} runs R independent
 * searches (the sweep seeds each search by its key), which is how a test averages out the luck of one.
 *
 * <p>The file is read on first use and kept: a gzipped cache takes seconds to parse and every
 * caller (sweep validation, each search, each candidate) wants the same space.
 */
public final class ReplaySpec implements KernelSpec {
    public static final String PREFIX = "replay.";
    public static final Map<String, Integer> SHAPE = Map.of("n", 1);

    private final Path file;
    private final String op;
    private volatile RecordedSpace recorded;

    public ReplaySpec(Path file) {
        this.file = file.toAbsolutePath().normalize();
        this.op = PREFIX + stem(file);
    }

    /** The file name without {@code .gz} and {@code .json}: {@code gemm_RTX_3090.json.gz} → {@code gemm_RTX_3090}. */
    public static String stem(Path file) {
        return file.getFileName().toString().replaceFirst("\\.gz$", "").replaceFirst("\\.json$", "");
    }

    public Path file() { return file; }

    /** The key of a sweep of this space with shape {@code n = 1}. */
    public KernelKey key() {
        return key(1);
    }

    /** The key of replicate {@code n}. */
    public KernelKey key(int n) {
        return new KernelKey(op, Map.of("n", n), "fp32");
    }

    /**
     * The recording, read on first call.
     *
     * @throws UncheckedIOException when the file cannot be read or is not a cache file
     */
    public RecordedSpace recorded() {
        RecordedSpace r = recorded;
        if (r != null) return r;
        synchronized (this) {
            if (recorded == null) {
                try {
                    recorded = KernelTunerCache.read(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(op + ": cannot read " + file + ": " + e.getMessage(), e);
                }
            }
            return recorded;
        }
    }

    @Override public String op() { return op; }

    @Override public List<String> dimensions() { return List.of("n"); }

    /** The recorded space; the same for every {@code n} and core count (it was measured elsewhere). */
    @Override public SearchSpace space(KernelKey key, int cores) {
        validate(key);
        return recorded().space();
    }

    /**
     * The lowest-index configuration present: a cache file names no default, and picking one by
     * its recorded time would hand the search an answer it did not pay for.
     */
    @Override public Map<String, Object> defaultConfig(KernelKey key, int cores) {
        RecordedSpace r = recorded();
        if (r.size() == 0) throw new IllegalArgumentException(op + ": " + file + " records no configuration");
        return r.space().config(r.indices()[0]);
    }

    /** Unknown: the cache records times, not the kernel's work. */
    @Override public double flops(KernelKey key) { return 0; }

    @Override public boolean equals(Object o) {
        return o instanceof ReplaySpec s && s.file.equals(file);
    }

    @Override public int hashCode() {
        return file.hashCode();
    }

    @Override public String toString() {
        return op + " (" + file + ")";
    }
}
