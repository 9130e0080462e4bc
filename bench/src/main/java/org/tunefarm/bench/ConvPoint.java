package org.tunefarm.bench;

import java.util.List;
import java.util.Map;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.kernel.Conv2dSpec;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.space.SearchSpace;

/** Points of the conv2d space for the bench's quick search: where it starts, and short names. */
final class ConvPoint {

    private static final Conv2dSpec SPEC = new Conv2dSpec();

    private ConvPoint() {}

    static KernelKey key(Map<String, Integer> shape) {
        return new KernelKey("conv2d", shape, "fp32");
    }

    /**
     * The vector points at {@code threads} threads that this machine's vector registers hold: the
     * scalar loops are the default, not a candidate.
     */
    static SearchSpace space(KernelKey key, int cores, int threads) {
        int bits = VectorWidth.bits();
        return SPEC.space(key, cores, bits, DeviceProfile.registers(System.getProperty("os.arch"), bits))
                .narrow(Map.of("kernel", List.of("vector"), "threads", List.of(threads)), List.of());
    }

    /** The family's seeds ({@link Conv2dSpec#seeds}) at {@code threads} threads that are valid in the space; the random sample then looks around them. */
    static List<Map<String, Object>> startingPoints(SearchSpace space, KernelKey key, int threads) {
        return TunedSearch.validIn(space, SPEC.seeds(key, threads));
    }

    /** A short name for tables: "NHWC im2col 8x2 256/96/16 t1", "NCHW gemm 8x2 1024/128/256 packed t1". */
    static String name(Map<String, Object> p) {
        if ("scalar".equals(p.get("kernel"))) return p.get("layout") + " scalar direct t" + p.get("threads");
        String input = "NCHW".equals(p.get("layout")) && "gemm".equals(p.get("algo"))
                ? (Integer.valueOf(1).equals(p.get("packInput")) ? " packed" : " in place") : "";
        return p.get("layout") + " " + p.get("algo") + " " + p.get("microRows") + "x" + p.get("microVecs") + " "
                + p.get("tileP") + "/" + p.get("tileK") + "/" + p.get("tileC") + input + " t" + p.get("threads");
    }

    /** "conv1 3->32 3x3/2 @224". */
    static String describe(String layer, KernelKey key) {
        return layer + " " + key.dim("C") + "->" + key.dim("K") + " " + key.dim("R") + "x" + key.dim("S")
                + (key.dim("stride") == 1 ? "" : "/" + key.dim("stride")) + " @" + key.dim("H");
    }
}
