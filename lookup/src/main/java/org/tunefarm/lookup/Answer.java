package org.tunefarm.lookup;

import java.time.Instant;
import java.util.Map;

/**
 * What the table says to run for one lookup. Built once when a {@link DeviceTable} is made and
 * handed out as is, so a lookup allocates nothing; immutable.
 *
 * @param deviceClass        the table's device class the answer comes from
 * @param deviceRule         how the device was matched to that class
 * @param op                 operation, e.g. {@code gemm}
 * @param dtype              element type, e.g. {@code fp32}
 * @param objective          what the winner was chosen for, e.g. {@code latency}
 * @param shapeRule          how the asked shape was matched
 * @param shape              the tuned shape the answer was measured on (for {@code DEFAULT}: the
 *                           entry whose default parameters were taken), dimension names sorted
 * @param kernelId           that entry's kernel id, e.g. {@code gemm[K=512,M=512,N=512]:fp32}
 * @param params             the parameters to run with (for {@code DEFAULT}: the family default)
 * @param medianNs           measured median time per call, ns; NaN when not measured
 * @param speedupOverDefault the winner's speedup over the family default on that shape (1 for
 *                           {@code DEFAULT}); NaN when the default was not measured
 * @param gflops             measured GFLOP/s; NaN when not known
 * @param sweepId            the sweep that measured it, or null
 * @param agentId            the board that measured it, or null (not recorded for the default)
 * @param measuredAt         when it was measured, or null
 */
public record Answer(
        String deviceClass,
        DeviceRule deviceRule,
        String op,
        String dtype,
        String objective,
        ShapeRule shapeRule,
        Map<String, Integer> shape,
        String kernelId,
        Map<String, Object> params,
        double medianNs,
        double speedupOverDefault,
        double gflops,
        String sweepId,
        String agentId,
        Instant measuredAt) {

    /** Whether the asked shape itself was tuned (distance 0). */
    public boolean exact() {
        return shapeRule == ShapeRule.EXACT;
    }
}
