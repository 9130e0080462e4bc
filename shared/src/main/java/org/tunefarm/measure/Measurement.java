package org.tunefarm.measure;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
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
 * @param round       0 for a candidate's first measurement; 1 and up for its re-measurement as a
 *                    finalist (each round on another board), so each round is its own record
 * @param thermal     cooldown before the candidate and throttling during it; null when the agent
 *                    did not watch the heat (older agents, no temperature sensor and no clock)
 * @param sustainedNs time per call after running the candidate continuously for the sweep's
 *                    {@code sustainedSeconds} (a sustained sweep's finalists); null when not run
 * @param energyJ     joules per call from the board's power or energy sensors; null where unreadable
 * @param implementation the version of the kernel family's code that ran it, as the agent declares
 *                    it ({@code KernelFamily.implementation()}, 1 and up); 0 for records written before
 *                    versions were recorded. The table never merges measurements of different
 *                    implementations: the newest supersedes.
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
        int order,
        int round,
        @JsonInclude(JsonInclude.Include.NON_NULL) Thermal thermal,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double sustainedNs,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double energyJ,
        // Absent in records written before versions were recorded: 0, not a refused line.
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonSetter(nulls = Nulls.AS_EMPTY) int implementation) {

    /** A measurement of an implementation not (yet) stamped: what the harness builds before {@link #ofImplementation}. */
    public Measurement(String sweepId, KernelKey key, long index, Map<String, Object> params, Status status, Stats stats,
                       Double maxError, SensorReading before, SensorReading after, String detail, String agentId,
                       String deviceClass, long startedAt, long finishedAt, int order, int round,
                       Thermal thermal, Double sustainedNs, Double energyJ) {
        this(sweepId, key, index, params, status, stats, maxError, before, after, detail, agentId, deviceClass, startedAt, finishedAt, order, round,
                thermal, sustainedNs, energyJ, 0);
    }

    /** A measurement without heat or objective figures beyond latency. */
    public Measurement(String sweepId, KernelKey key, long index, Map<String, Object> params, Status status, Stats stats,
                       Double maxError, SensorReading before, SensorReading after, String detail, String agentId,
                       String deviceClass, long startedAt, long finishedAt, int order, int round) {
        this(sweepId, key, index, params, status, stats, maxError, before, after, detail, agentId, deviceClass, startedAt, finishedAt, order, round,
                null, null, null);
    }

    /** A first measurement (round 0). */
    public Measurement(String sweepId, KernelKey key, long index, Map<String, Object> params, Status status, Stats stats,
                       Double maxError, SensorReading before, SensorReading after, String detail, String agentId,
                       String deviceClass, long startedAt, long finishedAt, int order) {
        this(sweepId, key, index, params, status, stats, maxError, before, after, detail, agentId, deviceClass, startedAt, finishedAt, order, 0);
    }

    /**
     * Identity for idempotence: a candidate of a sweep on a device class is recorded once per
     * round. Round 0 keeps the id it had before rounds existed.
     */
    public String recordId() {
        return sweepId + "/" + deviceClass + "/" + key.id() + "/" + index + (round == 0 ? "" : "#r" + round);
    }

    /** This measurement stamped with a finalist round. */
    public Measurement inRound(int r) {
        return new Measurement(sweepId, key, index, params, status, stats, maxError, before, after, detail, agentId, deviceClass,
                startedAt, finishedAt, order, r, thermal, sustainedNs, energyJ, implementation);
    }

    /** This measurement stamped with the version of the family code that ran it. */
    public Measurement ofImplementation(int version) {
        return new Measurement(sweepId, key, index, params, status, stats, maxError, before, after, detail, agentId, deviceClass,
                startedAt, finishedAt, order, round, thermal, sustainedNs, energyJ, version);
    }
}
