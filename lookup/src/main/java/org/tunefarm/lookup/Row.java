package org.tunefarm.lookup;

import java.util.Map;

/**
 * One entry of the document as read, before any device is known.
 *
 * @param shape           dimension names sorted, as in the kernel id
 * @param defaultParams   null when the sweep measured no baseline
 * @param medianNs        NaN where the document has no figure (likewise the other doubles)
 * @param measuredAt      epoch ms, 0 when absent (likewise defaultMeasuredAt)
 */
record Row(
        String deviceClass,
        String objective,
        String op,
        String dtype,
        Map<String, Integer> shape,
        String kernelId,
        Map<String, Object> params,
        Map<String, Object> defaultParams,
        double medianNs,
        double gflops,
        double speedupOverDefault,
        String agentId,
        String sweepId,
        long measuredAt,
        double defaultMedianNs,
        long defaultMeasuredAt) {

    /** The dimension names, sorted: part of what makes two shapes comparable. */
    String dimensions() {
        return String.join(",", shape.keySet());
    }
}
