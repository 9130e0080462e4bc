package org.tunefarm.agent.worker;

import java.util.Map;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.kernel.KernelKey;

/**
 * One line the agent writes to a worker's stdin: measure this candidate. The family is the one
 * implementing {@code key.op}; inputs come from {@code settings.seed}.
 *
 * @param seq    increases per request, echoed in the response
 * @param group  when not null, finalists to measure interleaved instead of {@code params}
 * @param sustainedSeconds when not null, run {@code params} without pause this long ({@code Harness.sustain})
 */
public record WorkerRequest(long seq, KernelKey key, Map<String, Object> params, MeasureSettings settings, java.util.List<Map<String, Object>> group,
                            Double sustainedSeconds) {

    public WorkerRequest(long seq, KernelKey key, Map<String, Object> params, MeasureSettings settings) {
        this(seq, key, params, settings, null, null);
    }

    public WorkerRequest(long seq, KernelKey key, Map<String, Object> params, MeasureSettings settings, java.util.List<Map<String, Object>> group) {
        this(seq, key, params, settings, group, null);
    }
}
