package org.tunefarm.measure;

import java.util.Map;
import org.tunefarm.kernel.KernelKey;

/**
 * One candidate measured on one agent: the unit of truth that the record log keeps.
 *
 * @param sweepId     the sweep it belongs to
 * @param key         what was computed
 * @param index       the candidate's index in the sweep's space
 * @param params      the candidate's parameter values
 * @param status      how it ended; only OK can win
 * @param stats       timing, null unless OK
 * @param maxError    largest absolute difference from the reference, null when not checked
 * @param before      sensors before the candidate ran
 * @param after       sensors after it ran
 * @param detail      failure message (stderr tail, exception) or empty
 * @param agentId     who measured it
 * @param deviceClass the agent's device class
 * @param startedAt   epoch ms
 * @param finishedAt  epoch ms
 * @param order       position in the batch's (shuffled) run order
 */
public record Measurement(
        String sweepId,
        KernelKey key,
        long index,
        Map<String, Object> params,
        Status status,
        Stats stats,
        Double maxError,
        SensorReading before,
        SensorReading after,
        String detail,
        String agentId,
        String deviceClass,
        long startedAt,
        long finishedAt,
        int order) {

    /** Identity for idempotence: a candidate of a sweep on a device class is recorded once. */
    public String recordId() {
        return sweepId + "/" + deviceClass + "/" + key.id() + "/" + index;
    }
}
