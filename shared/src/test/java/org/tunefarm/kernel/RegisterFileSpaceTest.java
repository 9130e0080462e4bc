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

/** A device's GEMM space offers only the micro-tiles its vector register file holds. */
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
