package org.tunefarm.coordinator.lease;

import java.util.LinkedHashMap;
import java.util.Map;
import org.tunefarm.coordinator.sweep.SweepSpec;

/**
 * How many candidates to lend an agent so that its lease lasts about the sweep's
 * {@code leaseSeconds}, whatever a candidate costs on that board: a GEMM candidate takes seconds
 * on a phone and milliseconds on a server, and a fixed batch makes the first's leases outlast
 * their use (a lost board holds its batch until the deadline) and the second's cost more in round
 * trips than in measuring. Each finished lease tells how long a candidate took there, lease
 * overhead included; the next lease of the same agent, sweep and shape is sized by the average of
 * that and what was known before. Until one has finished, a lease holds {@link #FIRST} candidates.
 * A sweep with a fixed {@code batchSize} gets exactly that.
 */
final class LeaseSizer {
    /** Candidates in the first lease of an agent, sweep and shape: enough to learn from, few enough to come back soon on a slow board. */
    static final int FIRST = 8;
    /** Agents x sweeps x shapes remembered; the least recently used is forgotten first. */
    static final int KEPT = 8192;

    /** Milliseconds per candidate by agent, sweep and shape, least recently used first. */
    private final Map<String, Double> msPerCandidate = new LinkedHashMap<>(256, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<String, Double> eldest) {
            return size() > KEPT;
        }
    };

    /** The size of the next lease of {@code keyId} for this agent. */
    int size(String agentId, String sweepId, String keyId, SweepSpec spec) {
        if (spec.batchSize() != SweepSpec.AUTO_BATCH) return spec.batchSize();
        Double ms = msPerCandidate.get(slot(agentId, sweepId, keyId));
        if (ms == null) return FIRST;
        long n = Math.round(spec.leaseSeconds() * 1000 / Math.max(ms, 1e-3));
        return (int) Math.max(1, Math.min(SweepSpec.MAX_BATCH, n));
    }

    /** A lease of {@code candidates} that the agent finished, all reported, {@code elapsedMs} after it was lent. */
    void finished(String agentId, String sweepId, String keyId, int candidates, long elapsedMs) {
        if (candidates <= 0) return;
        double ms = Math.max(0, elapsedMs) / (double) candidates;
        msPerCandidate.merge(slot(agentId, sweepId, keyId), ms, (old, now) -> (old + now) / 2);
    }

    /** How many slots are remembered. */
    int remembered() {
        return msPerCandidate.size();
    }

    private static String slot(String agentId, String sweepId, String keyId) {
        return agentId + '\n' + sweepId + '\n' + keyId;
    }
}
