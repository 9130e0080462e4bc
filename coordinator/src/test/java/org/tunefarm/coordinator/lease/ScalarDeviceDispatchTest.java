package org.tunefarm.coordinator.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tunefarm.coordinator.sweep.SweepRun;
import org.tunefarm.coordinator.sweep.SweepSpecReader;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.protocol.Lease;
import org.tunefarm.protocol.Register;
import org.tunefarm.protocol.Work;

/**
 * A board whose JVM lacks the Vector API registers with vectorBits 0: its searches offer only
 * scalar variants, and a sweep of vector variants only passes it by, while a board with vectors
 * of the same sweep gets both.
 */
class ScalarDeviceDispatchTest {
    static final DeviceProfile SCALAR = profile(0);
    static final DeviceProfile VECTOR = profile(128);

    static DeviceProfile profile(int vectorBits) {
        return new DeviceProfile("Cortex-A72", "Cortex-A72", 4, 4, 32, 1024, 0, 4, "Linux", "aarch64", "Debian", 17, vectorBits, List.of(), Map.of());
    }

    long now = 1_700_000_000_000L;

    Dispatcher farm(String spec) {
        Dispatcher d = new Dispatcher(() -> now, 1_000, new Dispatcher.Listener() {});
        d.add(new SweepRun("sw", SweepSpecReader.read(spec), now));
        d.register(new Register("scalar-board", SCALAR, List.of("gemm")));
        d.register(new Register("vector-board", VECTOR, List.of("gemm")));
        return d;
    }

    /** Every kernel variant the agent is lent until its search runs dry. */
    Set<Object> kernelsLent(Dispatcher d, String agentId) {
        Set<Object> kernels = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            Work w = d.pull(agentId);
            if (w.lease() == null) break;
            for (Lease.Candidate c : w.lease().candidates()) kernels.add(c.params().get("kernel"));
        }
        return kernels;
    }

    @Test void aBoardWithoutVectorsIsLentOnlyScalarVariants() {
        Dispatcher d = farm("""
                kernel: gemm
                shapes: [{M: 32, N: 32, K: 32}]
                strategy: {name: random, budget: 40, seed: 1}
                measure: {finalists: 0}
                batchSize: 8
                """);
        assertEquals(Set.of("scalar"), kernelsLent(d, "scalar-board"));
        assertTrue(kernelsLent(d, "vector-board").contains("vector"), "the same sweep lends vector variants where they run");
    }

    @Test void aSweepOfVectorVariantsOnlyPassesABoardWithoutVectorsBy() {
        Dispatcher d = farm("""
                kernel: gemm
                shapes: [{M: 32, N: 32, K: 32}]
                space: {kernel: [vector]}
                strategy: {name: random, budget: 4, seed: 1}
                measure: {finalists: 0}
                batchSize: 4
                """);
        assertNull(d.pull("scalar-board").lease(), "nothing it could run");
        Work w = d.pull("vector-board");
        assertNotNull(w.lease());
        assertFalse(w.lease().candidates().isEmpty());
    }
}
