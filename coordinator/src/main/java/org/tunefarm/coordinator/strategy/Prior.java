package org.tunefarm.coordinator.strategy;

import java.util.Map;

/**
 * A measurement of the same kernel on another device class, used to start a search warm
 * (transfer). Only its configuration's rank within its own device class matters, not its time.
 */
public record Prior(Map<String, Object> config, double time, String deviceClass) {
    public Prior {
        config = Map.copyOf(config);
        if (!(time > 0 && Double.isFinite(time))) throw new IllegalArgumentException("a prior needs a positive time, got " + time);
    }
}
