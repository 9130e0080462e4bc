package org.tunefarm.coordinator.lease;

import org.tunefarm.measure.Measurement;
import org.tunefarm.measure.SensorReading;
import org.tunefarm.measure.Stats;
import org.tunefarm.measure.Status;
import org.tunefarm.protocol.ProtocolException;

/**
 * Refuses measurements no honest harness produces: missing fields, NaN, infinite, negative or
 * absurd timings, impossible statistics, sensor readings no board reports, timestamps before 1970
 * or after 2100, statuses this version does not know. Stats are checked whenever present, not only for OK: a record is a record.
 */
final class MeasurementCheck {
    /** An hour per call: anything slower is not a kernel measurement. */
    private static final double MAX_NS = 3.6e12;
    private static final int MAX_SAMPLES = 10_000_000;
    /** Epoch ms up to 2100-01-01: later is a broken clock, or a lie. */
    private static final long MAX_EPOCH_MS = 4_102_444_800_000L;
    /** A candidate takes at most its timeout; a day is far beyond any. */
    private static final long MAX_DURATION_MS = 24L * 3600 * 1000;

    private MeasurementCheck() {}

    static void check(Measurement m, String f) {
        if (m.status() == null) throw new ProtocolException(f + ".status: is required");
        // The log reads statuses of newer versions forward-compatibly; an agent must speak this version's.
        if (!m.status().known()) throw new ProtocolException(f + ".status: unknown status " + m.status() + ", expected one of " + Status.values());
        if (m.key() == null) throw new ProtocolException(f + ".key: is required");
        if (m.params() == null) throw new ProtocolException(f + ".params: is required");
        if (m.sweepId() == null || m.agentId() == null || m.deviceClass() == null) throw new ProtocolException(f + ": sweepId, agentId and deviceClass are required");
        if (m.detail() != null && m.detail().length() > 16_384) throw new ProtocolException(f + ".detail: longer than 16384 characters");
        if (m.status() == Status.OK && m.stats() == null) throw new ProtocolException(f + ".stats: required when status is OK");
        if (m.stats() != null) stats(m.stats(), f + ".stats");
        if (m.maxError() != null && m.status() == Status.OK && !(m.maxError() >= 0 && m.maxError() < Double.POSITIVE_INFINITY)) {
            throw new ProtocolException(f + ".maxError: must be a finite non-negative number when status is OK");
        }
        sensors(m.before(), f + ".before");
        sensors(m.after(), f + ".after");
        if (m.startedAt() < 0 || m.startedAt() > MAX_EPOCH_MS) throw new ProtocolException(f + ".startedAt: not a plausible epoch time in ms: " + m.startedAt());
        if (m.finishedAt() < m.startedAt()) throw new ProtocolException(f + ".finishedAt: before startedAt");
        if (m.finishedAt() - m.startedAt() > MAX_DURATION_MS) throw new ProtocolException(f + ".finishedAt: more than a day after startedAt");
        if (m.order() < 0) throw new ProtocolException(f + ".order: must not be negative");
    }

    private static void stats(Stats s, String f) {
        positive(s.minNs(), f + ".minNs");
        positive(s.medianNs(), f + ".medianNs");
        positive(s.meanNs(), f + ".meanNs");
        if (!(s.stdevNs() >= 0 && s.stdevNs() <= MAX_NS)) throw new ProtocolException(f + ".stdevNs: must be finite and non-negative, got " + s.stdevNs());
        if (!(s.cv() >= 0 && s.cv() < 1e6)) throw new ProtocolException(f + ".cv: must be finite and non-negative, got " + s.cv());
        if (s.samples() < 1 || s.samples() > MAX_SAMPLES) throw new ProtocolException(f + ".samples: must be in [1, " + MAX_SAMPLES + "]");
        if (s.callsPerSample() < 1) throw new ProtocolException(f + ".callsPerSample: must be at least 1");
        if (s.minNs() > s.medianNs() * (1 + 1e-9)) throw new ProtocolException(f + ".minNs: larger than the median");
        if (s.minNs() > s.meanNs() * (1 + 1e-9)) throw new ProtocolException(f + ".minNs: larger than the mean");
    }

    /** Absent is fine (no such sensor); present must be a number a real board could report. */
    private static void sensors(SensorReading r, String f) {
        if (r == null) return;
        range(r.temperatureC(), -100, 300, f + ".temperatureC");
        range(r.clockMhz(), 0, 100_000, f + ".clockMhz");
        range(r.powerW(), 0, 100_000, f + ".powerW");
    }

    private static void range(Double v, double min, double max, String field) {
        if (v != null && !(v >= min && v <= max)) throw new ProtocolException(field + ": must be in [" + min + ", " + max + "] or absent, got " + v);
    }

    private static void positive(double v, String field) {
        if (!(v > 0) || v > MAX_NS) throw new ProtocolException(field + ": must be a positive number of nanoseconds below " + MAX_NS + ", got " + v);
    }
}
