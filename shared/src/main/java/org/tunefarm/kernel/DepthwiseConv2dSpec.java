package org.tunefarm.kernel;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/**
 * fp32 depthwise 2-D convolution, the MobileNet workhorse: each of C channels of N images
 * (H x W) is filtered by its own R x S filter, with a square {@code stride} and zero {@code pad};
 * output N x C x P x Q. Usually 3x3 with stride 1 or 2 and pad 1; any R, S compute.
 *
 * <p>Only R*S multiply-adds per output, so the kernel is bound by how it walks memory:
 * {@code layout} NCHW (filters C x R x S) or NHWC (filters R x S x C); {@code kernel} plain loops
 * ({@code scalar}) or the Vector API ({@code vector}) over either {@code vectorOver} axis —
 * {@code channels} (contiguous in NHWC, a gather in NCHW) or {@code width} (contiguous in NCHW
 * at stride 1, a gather otherwise). {@code tileH} output rows and {@code tileC} channels make one
 * unit of work; {@code threads} share the units.
 */
public final class DepthwiseConv2dSpec implements KernelSpec {

    static final int[] TILE_H = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    static final int[] TILE_C = {8, 16, 32, 64, 128, 256, 512, 1024, 2048};

    /** The scalar loops vectorise over nothing: keep one value of vectorOver for them. */
    public static final List<String> CONSTRAINTS = List.of("kernel == \"vector\" || vectorOver == \"width\"");

    @Override public String op() { return "depthwise_conv2d"; }

    /** The {@code scalar} kernel is plain Java; the others are written with the Vector API. */
    @Override public Map<String, List<Object>> withoutVectors() { return Map.of("kernel", List.of("scalar")); }

    @Override public List<String> dimensions() { return List.of("N", "C", "H", "W", "R", "S", "stride", "pad"); }

    /** Padding may be zero; the output must have at least one position. */
    @Override public void validate(KernelKey key) {
        for (String d : dimensions()) {
            Integer v = key.shape().get(d);
            if (v == null) throw new IllegalArgumentException("shape." + d + " is missing");
            if (v < 0 || (v == 0 && !d.equals("pad"))) throw new IllegalArgumentException("shape." + d + " must be positive, got " + v);
        }
        for (String d : key.shape().keySet()) {
            if (!dimensions().contains(d)) throw new IllegalArgumentException("shape." + d + ": " + op() + " has no such dimension (it has " + dimensions() + ")");
        }
        if (!dtypes().contains(key.dtype())) throw new IllegalArgumentException("dtype: " + op() + " implements " + dtypes() + ", not " + key.dtype());
        if (key.dim("pad") >= Math.min(key.dim("R"), key.dim("S"))) throw new IllegalArgumentException("shape.pad must be below the filter size");
        if (outHeight(key) < 1 || outWidth(key) < 1) throw new IllegalArgumentException("shape.H: the filter does not fit the padded input");
        long in = (long) key.dim("N") * key.dim("C") * key.dim("H") * key.dim("W");
        if (in > Integer.MAX_VALUE / 2) throw new IllegalArgumentException("shape.N: tensors beyond 2^30 elements");
    }

    public static int outHeight(KernelKey key) {
        return Conv2dSpec.outExtent(key.dim("H"), key.dim("R"), key.dim("stride"), key.dim("pad"), 1);
    }

    public static int outWidth(KernelKey key) {
        return Conv2dSpec.outExtent(key.dim("W"), key.dim("S"), key.dim("stride"), key.dim("pad"), 1);
    }

    @Override public SearchSpace space(KernelKey key, int cores) {
        return SearchSpace.of(parameters(key, cores), CONSTRAINTS);
    }

    public List<Parameter> parameters(KernelKey key, int cores) {
        validate(key);
        if (cores < 1) throw new IllegalArgumentException("cores must be positive, got " + cores);
        return List.of(
                Parameter.strings("layout", "NCHW", "NHWC"),
                Parameter.strings("kernel", "scalar", "vector"),
                Parameter.strings("vectorOver", "width", "channels"),
                Parameter.ints("tileH", Tiles.fitting(TILE_H, outHeight(key))),
                Parameter.ints("tileC", Tiles.fitting(TILE_C, key.dim("C"))),
                Parameter.ints("threads", IntStream.rangeClosed(1, cores).toArray()));
    }

    /** Plain loops over NCHW, a few rows of every channel per unit, one thread. */
    @Override public Map<String, Object> defaultConfig(KernelKey key, int cores) {
        return Tiles.config(parameters(key, cores), Map.of("layout", "NCHW", "kernel", "scalar", "vectorOver", "width",
                "tileH", 8, "tileC", 2048, "threads", 1));
    }

    /**
     * NHWC with vectors over channels, every channel per unit (the pixels blocked four at a time
     * share each filter vector) and one or a few rows per unit: found fast on MobileNetV2's layers.
     */
    @Override public List<Map<String, Object>> seeds(KernelKey key, int threads) {
        List<Parameter> ps = parameters(key, threads);
        return Stream.of(1, 4).map(tileH -> Tiles.config(ps, Map.<String, Object>of("layout", "NHWC", "kernel", "vector",
                "vectorOver", "channels", "tileH", tileH, "tileC", 2048, "threads", threads))).distinct().toList();
    }

    @Override public double flops(KernelKey key) {
        return 2.0 * key.dim("N") * key.dim("C") * outHeight(key) * outWidth(key) * key.dim("R") * key.dim("S");
    }
}
