package org.tunefarm.coordinator.sweep;

import java.util.List;
import java.util.Map;
import org.tunefarm.kernel.CommandKernelDeclaration;
import org.tunefarm.kernel.KernelKey;
import org.tunefarm.measure.Fidelity;
import org.tunefarm.measure.MeasureSettings;
import org.tunefarm.measure.Objective;

/**
 * What a user asks the farm to tune: one kernel family over one or more shapes, optionally on a
 * narrowed space, with a search strategy and a budget per (device class, shape), and how to measure.
 *
 * @param space         parameter name → the values to keep (empty: the family's whole space)
 * @param constraints   extra constraint expressions over parameter names
 * @param deviceClasses device classes to tune for; empty means every class that has agents
 * @param batchSize     candidates per lease; {@link #AUTO_BATCH} (the default): as many as last about
 *                      {@code leaseSeconds} on the agent, learned from its leases of the same shape
 * @param fidelity      noise guards: CV retakes and finalists (the measure section's maxCv, maxRetakes, finalists)
 * @param command       for a command kernel, the declaration the sweep was accepted against; null for a built-in family
 * @param priority      among sweeps that share agents, higher leases first; equal ones take turns (default 0)
 * @param objective     what the sweep tunes for (default latency); every lease carries it
 * @param sustainedSeconds for a sustained sweep, how long each finalist runs continuously before its
 *                      sustained time is taken; 0 for every other objective
 * @param leaseSeconds  how long a lease should last when the batch size is {@link #AUTO_BATCH}
 *                      (default {@link #DEFAULT_LEASE_SECONDS})
 */
public record SweepSpec(String name, String kernel, String dtype, List<Map<String, Integer>> shapes,
                        Map<String, List<Object>> space, List<String> constraints, StrategySpec strategy,
                        MeasureSettings measure, List<String> deviceClasses, int batchSize, Fidelity fidelity,
                        CommandKernelDeclaration command, Integer priority, Objective objective, Double sustainedSeconds,
                        Double leaseSeconds) {

    /** How long a sustained sweep's finalists run when the spec does not say. */
    public static final double DEFAULT_SUSTAINED_SECONDS = 30;
    public static final double MAX_SUSTAINED_SECONDS = 3600;
    /** A batch size that adapts: each lease as many candidates as last {@code leaseSeconds} on the agent. */
    public static final int AUTO_BATCH = 0;
    /** The most candidates one lease may hold, fixed or adapted. */
    public static final int MAX_BATCH = 1000;
    /**
     * How long an adaptive lease lasts by default: long enough that its round trips (pull, the
     * lease, the closing report) are a sliver of it, short enough that a lost agent's batch
     * comes back soon and the strategy hears results often.
     */
    public static final double DEFAULT_LEASE_SECONDS = 10;
    public static final double MAX_LEASE_SECONDS = 3600;

    public SweepSpec {
        if (fidelity == null) fidelity = Fidelity.DEFAULTS;
        if (priority == null) priority = 0; // sweeps logged before priorities existed
        if (objective == null) objective = Objective.LATENCY; // sweeps logged before objectives existed
        if (sustainedSeconds == null) sustainedSeconds = objective == Objective.SUSTAINED ? DEFAULT_SUSTAINED_SECONDS : 0.0;
        if (leaseSeconds == null) leaseSeconds = DEFAULT_LEASE_SECONDS; // sweeps logged before leases adapted
    }

    /** A sweep of a built-in family with the default noise guards. */
    public SweepSpec(String name, String kernel, String dtype, List<Map<String, Integer>> shapes, Map<String, List<Object>> space,
                     List<String> constraints, StrategySpec strategy, MeasureSettings measure, List<String> deviceClasses, int batchSize) {
        this(name, kernel, dtype, shapes, space, constraints, strategy, measure, deviceClasses, batchSize, Fidelity.DEFAULTS, null, 0,
                Objective.LATENCY, 0.0, null);
    }

    /**
     * @param name    strategy name as registered
     * @param budget  trials per (device class, shape), failures included; 0 = no limit
     * @param seconds wall-time budget per (device class, shape); 0 = no limit
     */
    public record StrategySpec(String name, int budget, long seconds, long seed, Map<String, Object> options) {}

    public List<KernelKey> keys() {
        return shapes.stream().map(s -> new KernelKey(kernel, s, dtype)).toList();
    }
}
