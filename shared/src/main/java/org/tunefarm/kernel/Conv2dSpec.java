package org.tunefarm.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.tunefarm.space.Parameter;
import org.tunefarm.space.SearchSpace;

/**
 * fp32 2-D convolution, cross-correlation as in every DNN framework: N images of C x H x W, K
 * filters of C x R x S, with a square {@code stride}, zero {@code pad} and {@code dilation};
 * output N x K x P x Q. No groups (depthwise is its own family) and no bias.
 *
 * <p>{@code layout} is the tensors' memory order: NCHW (filters KCRS) or NHWC (filters RSCK).
 * {@code algo} picks the algorithm: {@code direct} (a register tile of {@code microRows} output
 * positions x {@code microVecs} vectors of output channels, reduced over taps and input
 * channels in place; {@code kernel == "scalar"} is plain loops instead), {@code im2col} (a
 * block of {@code tileP} output positions unrolled into a matrix, multiplied by the filters
 * with the GEMM family's packed micro-kernels) and {@code winograd} F(2x2, 3x3) (16 GEMMs over
 * blocks of {@code tileP} 2x2 output tiles) and, for pointwise layers (1x1, stride 1, no
 * padding), {@code gemm} (the layer is one GEMM over the tensors as they lie, on the packed
 * micro-kernels: no copy). {@code tileK} and {@code tileC} block the output and input channels
 * (the GEMM's N and K), {@code threads} splits the output positions. {@code packInput} is for the
 * NCHW GEMM alone, whose B is the input: packed into the micro-kernels' panels on every call (1) or
 * read in place (0). Which is faster depends on the layer and the vector width: with few filters
 * each panel is read only a few times, so packing it costs more than it saves (in place 1.10-1.26x
 * on MobileNetV2's block3-project, 24 filters, and 1.16x on block2-expand at 512 bits on a Zen 5),
 * but packed won by 1.1-1.3x with many filters or long panels, and on block2-expand under AVX2.
 */
public final class Conv2dSpec implements KernelSpec {

    static final int[] TILE_P = {16, 32, 64, 128, 256, 512, 1024};
    static final int[] TILE_K = {16, 32, 64, 128, 256, 512, 1024};
    static final int[] TILE_C = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

    /**
     * The scalar loops use no tiles and run only the direct algorithm; 24 accumulators fill the
     * 32 vector registers of AVX-512 and NEON (as in {@link GemmSpec}); a device with fewer gets
     * only the tiles its file holds ({@link #forDevice}); only the NCHW GEMM packs its input by choice.
     */
    public static final List<String> CONSTRAINTS = List.of(
            "kernel == \"vector\" || (algo == \"direct\" && microRows == 1 && microVecs == 1 && tileP == 16 && tileK == 16 && tileC == 16)",
            "microRows * microVecs <= 24",
            "packInput == 0 || (algo == \"gemm\" && layout == \"NCHW\")");

    /** Added for shapes Winograd F(2x2, 3x3) does not compute: anything but 3x3, stride 1, dilation 1. */
    public static final String NO_WINOGRAD = "algo != \"winograd\"";

    /** Added for shapes that are not one GEMM: anything but a 1x1 filter at stride 1 without padding. */
    public static final String NO_GEMM = "algo != \"gemm\"";

    /**
     * The vector variants as {@link KernelSpec#forVectors}, less the micro-tiles that
     * {@code registers} vector registers cannot hold ({@link MicroTiles#fitRegisters}, the GEMM's
     * rule: every algorithm runs on its micro-kernels): AVX2's 16 hold 3x3, 4x2 or 2x4, not the
     * 8x2, 6x2 and 4x3 that win on 32.
     */
    @Override public SearchSpace forDevice(SearchSpace space, int vectorBits, int registers) {
        SearchSpace s = forVectors(space, vectorBits);
        return vectorBits == 0 ? s : s.narrow(Map.of(), List.of("kernel == \"scalar\" || " + MicroTiles.fitRegisters(registers)));
    }

    @Override public String op() { return "conv2d"; }

    /** The {@code scalar} kernel is plain Java; the others are written with the Vector API. */
    @Override public Map<String, List<Object>> withoutVectors() { return Map.of("kernel", List.of("scalar")); }

    @Override public List<String> dimensions() {
        return List.of("N", "C", "H", "W", "K", "R", "S", "stride", "pad", "dilation");
    }

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
        int pad = key.dim("pad");
        if (pad >= key.dim("R") * key.dim("dilation") || pad >= key.dim("S") * key.dim("dilation")) {
            throw new IllegalArgumentException("shape.pad " + pad + " must be below the dilated filter extent");
        }
        if (outHeight(key) < 1 || outWidth(key) < 1) throw new IllegalArgumentException("shape.H: the dilated filter does not fit the padded input");
        long in = (long) key.dim("N") * key.dim("C") * key.dim("H") * key.dim("W");
        long out = (long) key.dim("N") * key.dim("K") * outHeight(key) * outWidth(key);
        if (in > Integer.MAX_VALUE / 2 || out > Integer.MAX_VALUE / 2) throw new IllegalArgumentException("shape.N: tensors beyond 2^30 elements");
    }

    /** Output rows P. */
    public static int outHeight(KernelKey key) {
        return outExtent(key.dim("H"), key.dim("R"), key.dim("stride"), key.dim("pad"), key.dim("dilation"));
    }

    /** Output columns Q. */
    public static int outWidth(KernelKey key) {
        return outExtent(key.dim("W"), key.dim("S"), key.dim("stride"), key.dim("pad"), key.dim("dilation"));
    }

    /** Output extent along one axis: positions where the dilated filter fits the padded input. */
    public static int outExtent(int in, int filter, int stride, int pad, int dilation) {
        return Math.floorDiv(in + 2 * pad - dilation * (filter - 1) - 1, stride) + 1;
    }

    /** Whether Winograd F(2x2, 3x3) computes this shape. */
    public static boolean winogradFits(KernelKey key) {
        return key.dim("R") == 3 && key.dim("S") == 3 && key.dim("stride") == 1 && key.dim("dilation") == 1;
    }

    /** Whether the layer is one GEMM over its tensors: a pointwise 1x1 filter, stride 1, no padding. */
    public static boolean gemmFits(KernelKey key) {
        return key.dim("R") == 1 && key.dim("S") == 1 && key.dim("stride") == 1 && key.dim("pad") == 0;
    }

    @Override public SearchSpace space(KernelKey key, int cores) {
        List<String> constraints = new ArrayList<>(CONSTRAINTS);
        if (!winogradFits(key)) constraints.add(NO_WINOGRAD);
        if (!gemmFits(key)) constraints.add(NO_GEMM);
        return SearchSpace.of(parameters(key, cores), constraints);
    }

    /** Parameters and domains; tile domains stop at the first tile covering the shape. */
    public List<Parameter> parameters(KernelKey key, int cores) {
        validate(key);
        if (cores < 1) throw new IllegalArgumentException("cores must be positive, got " + cores);
        int positions = key.dim("N") * outHeight(key) * outWidth(key);
        int reduction = key.dim("C") * key.dim("R") * key.dim("S");
        return List.of(
                Parameter.strings("layout", "NCHW", "NHWC"),
                Parameter.strings("algo", "direct", "im2col", "winograd", "gemm"),
                Parameter.strings("kernel", "scalar", "vector"),
                Parameter.ints("microRows", 1, 2, 3, 4, 6, 8),
                Parameter.ints("microVecs", 1, 2, 3, 4),
                Parameter.ints("tileP", Tiles.fitting(TILE_P, positions)),
                Parameter.ints("tileK", Tiles.fitting(TILE_K, key.dim("K"))),
                Parameter.ints("tileC", Tiles.fitting(TILE_C, reduction)),
                Parameter.ints("threads", IntStream.rangeClosed(1, cores).toArray()),
                Parameter.ints("packInput", 0, 1));
    }

    /** Plain direct loops over NCHW on one thread: the textbook convolution a framework starts from. */
    @Override public Map<String, Object> defaultConfig(KernelKey key, int cores) {
        return Tiles.config(parameters(key, cores), Map.of("layout", "NCHW", "algo", "direct", "kernel", "scalar",
                "microRows", 1, "microVecs", 1, "tileP", 16, "tileK", 16, "tileC", 16, "threads", 1, "packInput", 0));
    }

    /**
     * The layouts and algorithms found fast on MobileNetV2's layers: for pointwise layers one GEMM
     * on the packed 8x2 and 4x3 tiles (in both layouts; NCHW's input packed and in place); NHWC
     * direct on 6x2 and 4x3 register tiles, NCHW direct on 8x1, and im2col on the GEMM's packed 8x2
     * and 6x2 tiles, with tiles cut to the layer's domains. Then AVX2's tiles (3x3, 4x2), where none of those fits: last, so a
     * 32-register device's seeds still lead its search; last of all NHWC direct on 2x4, two output
     * positions by 32 filters at 8 lanes, all of a first layer's filters in one tile (MobileNetV2's
     * 3-channel stem on a Zen 3, interleaved in one JVM: 1.11-1.20x 4x2 at 1 thread, 1.16x at 2).
     */
    @Override public List<Map<String, Object>> seeds(KernelKey key, int threads) {
        List<Parameter> ps = parameters(key, threads);
        List<Map<String, Object>> out = new ArrayList<>();
        if (gemmFits(key)) {
            out.add(vector(ps, "NCHW", "gemm", 8, 2, 1024, 128, 256, threads, 1));
            out.add(vector(ps, "NCHW", "gemm", 8, 2, 1024, 128, 256, threads, 0));
            out.add(vector(ps, "NHWC", "gemm", 8, 2, 128, 512, 256, threads));
            out.add(vector(ps, "NHWC", "gemm", 4, 3, 128, 512, 256, threads));
        }
        out.add(vector(ps, "NHWC", "direct", 6, 2, 64, 1024, 1024, threads));
        out.add(vector(ps, "NHWC", "direct", 4, 3, 64, 1024, 1024, threads));
        out.add(vector(ps, "NCHW", "direct", 8, 1, 64, 1024, 1024, threads));
        out.add(vector(ps, "NHWC", "im2col", 8, 2, 256, 1024, 1024, threads));
        out.add(vector(ps, "NCHW", "im2col", 6, 2, 128, 1024, 1024, threads));
        if (gemmFits(key)) {
            out.add(vector(ps, "NHWC", "gemm", 3, 3, 128, 1024, 256, threads));
            out.add(vector(ps, "NHWC", "gemm", 4, 2, 128, 512, 256, threads));
        }
        out.add(vector(ps, "NHWC", "direct", 3, 3, 64, 1024, 1024, threads));
        out.add(vector(ps, "NHWC", "im2col", 3, 3, 256, 1024, 1024, threads));
        out.add(vector(ps, "NHWC", "direct", 4, 2, 64, 1024, 1024, threads));
        out.add(vector(ps, "NHWC", "direct", 2, 4, 64, 1024, 1024, threads));
        return out.stream().distinct().toList();
    }

    private static Map<String, Object> vector(List<Parameter> ps, String layout, String algo, int rows, int vecs, int tileP, int tileK, int tileC,
                                              int threads) {
        return vector(ps, layout, algo, rows, vecs, tileP, tileK, tileC, threads, 0);
    }

    private static Map<String, Object> vector(List<Parameter> ps, String layout, String algo, int rows, int vecs, int tileP, int tileK, int tileC,
                                              int threads, int packInput) {
        return Tiles.config(ps, Map.ofEntries(Map.entry("layout", layout), Map.entry("algo", algo), Map.entry("kernel", "vector"),
                Map.entry("microRows", rows), Map.entry("microVecs", vecs), Map.entry("tileP", tileP), Map.entry("tileK", tileK),
                Map.entry("tileC", tileC), Map.entry("threads", threads), Map.entry("packInput", packInput)));
    }

    @Override public double flops(KernelKey key) {
        return 2.0 * key.dim("N") * key.dim("K") * outHeight(key) * outWidth(key) * key.dim("C") * key.dim("R") * key.dim("S");
    }
}
