package org.tunefarm.agent.harness;

import java.util.Map;

/**
 * One candidate of a batch.
 *
 * @param index  its index in the sweep's search space
 * @param params its parameter values
 */
public record BatchCandidate(long index, Map<String, Object> params) {
    public BatchCandidate {
        params = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
    }
}
