package org.tunefarm.agent.harness;

import java.util.Map;
import java.util.function.Function;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpec;
import org.tunefarm.space.SearchSpace;

/**
 * The agent's own check of what a lease asks it to run, before any worker sees it: the operation
 * must be one of its families, the shape valid for it, and the parameters a point of the family's
 * space on this device (every parameter present, each value in its domain, no other names, every
 * constraint held). The coordinator checks the same, but the agent does not take its word: a
 * refused candidate becomes an {@code INVALID} measurement, never an exception and never a run.
 */
@FunctionalInterface
public interface CandidateCheck {

    /** @return null when the candidate may run, else why not */
    String refusal(KernelKey key, Map<String, Object> params);

    /** How many kernels' spaces a check keeps built: the leases an agent holds at once are of a few. */
    int SPACES_KEPT = 8;

    /** Runs everything: for tests whose families declare no space. */
    CandidateCheck NONE = (key, params) -> null;

    /**
     * Checks against the families' declared spaces, for a device with {@code cores} logical cores
     * and {@code vectorBits}-bit vectors (what the agent registered with, so both sides build the
     * same space: without vectors, only the scalar variants).
     *
     * @param specs the spec implementing an operation; throws IllegalArgumentException when none does
     */
    static CandidateCheck against(Function<String, KernelSpec> specs, int cores, int vectorBits) {
        return against(specs, cores, vectorBits, org.tunefarm.device.DeviceProfile.REGISTERS_UNKNOWN);
    }

    /** As above, for a device with {@code registers} vector registers (its profile's {@code vectorRegisters()}). */
    static CandidateCheck against(Function<String, KernelSpec> specs, int cores, int vectorBits, int registers) {
        // A lease's candidates share one key: its space is built once, not per candidate (building
        // it took about 0.4 ms, time the board spent between candidates).
        Map<KernelKey, SearchSpace> spaces = new java.util.LinkedHashMap<>(16, 0.75f, true) {
            @Override protected boolean removeEldestEntry(Map.Entry<KernelKey, SearchSpace> eldest) {
                return size() > SPACES_KEPT;
            }
        };
        return (key, params) -> {
            if (key == null || key.op() == null) return "kernel: the lease names no kernel";
            if (params == null) return "params: the lease gives no parameters";
            KernelSpec spec;
            try {
                spec = specs.apply(key.op());
            } catch (IllegalArgumentException e) {
                return "kernel: this agent has no family for '" + key.op() + "'";
            }
            try {
                SearchSpace space;
                synchronized (spaces) {
                    space = spaces.get(key);
                }
                if (space == null) {
                    spec.validate(key);
                    space = spec.space(key, Math.max(1, cores), vectorBits, registers);
                    synchronized (spaces) {
                        spaces.put(key, space);
                    }
                }
                var violated = space.violated(space.index(params));
                return violated == null ? null : "params " + params + " break the constraint " + violated.text();
            } catch (RuntimeException e) {
                return "params " + params + " are not a point of " + key.op() + "'s space: " + e.getMessage();
            }
        };
    }
}
