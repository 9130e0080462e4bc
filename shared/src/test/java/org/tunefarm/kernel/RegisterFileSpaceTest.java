package org.tunefarm.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.space.SearchSpace;

/** A device's GEMM and conv2d spaces offer only the micro-tiles its vector register file holds. */
class RegisterFileSpaceTest {

    static final KernelKey KEY = new KernelKey("gemm", Map.of("M", 256, "N", 256, "K", 256), "fp32");
    static final GemmSpec GEMM = new GemmSpec();

    @Test void theRegisterFileFollowsTheIsa() {
        assertEquals(16, DeviceProfile.registers("amd64", 256), "AVX2");
        assertEquals(32, DeviceProfile.registers("amd64", 512), "AVX-512");
        assertEquals(32, DeviceProfile.registers("x86_64", 128), "x86 forced to 128 bits stands in for NEON's file");
        assertEquals(32, DeviceProfile.registers("aarch64", 128), "NEON");
        assertEquals(32, DeviceProfile.registers("aarch64", 256), "SVE");
        assertEquals(0, DeviceProfile.registers("amd64", 0), "no Vector API");
    }

    @Test void avx2HoldsNineAccumulatorsWithTheirBroadcasts() {
        SearchSpace s = GEMM.space(KEY, 2, 256, 16);
        assertTrue(valid(s, 3, 3), "9 accumulators + 3 B vectors + 3 broadcasts = 15");
        assertTrue(valid(s, 4, 2), "8 + 2 + 4 = 14");
        assertFalse(valid(s, 4, 3), "12 + 3 + 4 = 19: spilled an accumulator every k step on a Zen 3");
        assertFalse(valid(s, 6, 2), "12 + 2 + 6 = 20");
        assertFalse(valid(s, 8, 2), "16 accumulators spill");
        assertFalse(valid(s, 6, 3));
        assertTrue(valid(s, 1, 4), "the row streamer is never the limit");
        for (Iterator<Long> it = s.validIndices(); it.hasNext(); ) {
            Map<String, Object> p = s.config(it.next());
            int rows = (Integer) p.get("microRows"), vecs = (Integer) p.get("microVecs");
            if (p.get("kernel").equals("vector") && rows > 1) assertTrue(rows * vecs + vecs + rows <= 16, p.toString());
        }
    }

    @Test void thirtyTwoRegistersKeepTheWholeFamilySpace() {
        SearchSpace whole = GEMM.space(KEY, 2);
        SearchSpace wide = GEMM.space(KEY, 2, 512, 32);
        assertEquals(whole.countValid(), wide.countValid(), "24 accumulators, the family's own limit, fit 32 registers");
        assertTrue(valid(wide, 8, 3) && valid(wide, 6, 4) && valid(wide, 4, 3));
        assertEquals(whole.countValid(), GEMM.space(KEY, 2, 128, DeviceProfile.REGISTERS_UNKNOWN).countValid(),
                "a device of unknown ISA (a sweep log line without a profile) is not narrowed: restored sweeps keep their space");
        assertTrue(GEMM.space(KEY, 2, 256, 16).countValid() < whole.countValid());
    }

    @Test void onlyValidityChangesNeverAnIndex() {
        SearchSpace whole = GEMM.space(KEY, 2), narrow = GEMM.space(KEY, 2, 256, 16);
        Map<String, Object> p = point(4, 3);
        assertFalse(narrow.isValid(narrow.index(p)));
        assertEquals(whole.index(p), narrow.index(p), "records keep their meaning across the two spaces");
    }

    @Test void convolutionRunsOnTheSameMicroKernelsAndObeysTheSameFile() {
        Conv2dSpec conv = new Conv2dSpec();
        KernelKey pointwise = new KernelKey("conv2d", Map.of("N", 1, "C", 64, "H", 14, "W", 14, "K", 384, "R", 1, "S", 1,
                "stride", 1, "pad", 0, "dilation", 1), "fp32");
        SearchSpace avx2 = conv.space(pointwise, 2, 256, 16), wide = conv.space(pointwise, 2, 512, 32);
        for (String algo : new String[] {"gemm", "direct", "im2col"}) {
            assertTrue(validConv(avx2, algo, 3, 3) && validConv(avx2, algo, 4, 2), algo);
            assertFalse(validConv(avx2, algo, 8, 2) || validConv(avx2, algo, 6, 2) || validConv(avx2, algo, 4, 3), algo + ": 12 and 16 accumulators spill in 16");
            assertTrue(validConv(wide, algo, 8, 2) && validConv(wide, algo, 4, 3) && validConv(wide, algo, 3, 3), algo);
        }
        assertEquals(conv.space(pointwise, 2).countValid(), wide.countValid(), "32 registers hold the family's 24 accumulators");
        Map<String, Object> scalar = conv.defaultConfig(pointwise, 2);
        assertTrue(avx2.isValid(avx2.index(scalar)), "the scalar loops hold no tile");
        assertTrue(conv.seeds(pointwise, 1).stream().anyMatch(p -> avx2.validIndex(p).isPresent()), "AVX2's search starts from seeds it can run");
    }

    private static boolean validConv(SearchSpace s, String algo, int rows, int vecs) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("layout", "NHWC");
        p.put("algo", algo);
        p.put("kernel", "vector");
        p.put("microRows", rows);
        p.put("microVecs", vecs);
        p.put("tileP", 64);
        p.put("tileK", 128);
        p.put("tileC", 64);
        p.put("threads", 1);
        p.put("packInput", 0);
        return s.isValid(s.index(p));
    }

    private static boolean valid(SearchSpace s, int rows, int vecs) {
        return s.isValid(s.index(point(rows, vecs)));
    }

    private static Map<String, Object> point(int rows, int vecs) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("kernel", "vector");
        p.put("loopOrder", "ikj");
        p.put("tileM", 64);
        p.put("tileN", 256);
        p.put("tileK", 128);
        p.put("microRows", rows);
        p.put("microVecs", vecs);
        p.put("packA", rows == 1 ? 0 : 1);
        p.put("packB", rows == 1 ? 0 : 1);
        p.put("threads", 1);
        return p;
    }
}
